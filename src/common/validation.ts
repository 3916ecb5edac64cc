import type { z } from 'zod';

/** Turns a zod error into `{ field: firstMessage }` for showing next to form fields. */
export function fieldErrors(error: z.ZodError): Record<string, string> {
  const out: Record<string, string> = {};
  for (const issue of error.issues) {
    const key = issue.path.length > 0 ? String(issue.path[0]) : '_form';
    if (issue.code === 'unrecognized_keys') {
      out._form ??= `Unknown field${issue.keys.length > 1 ? 's' : ''}: ${issue.keys.join(', ')}.`;
      continue;
    }
    out[key] ??= issue.message;
  }
  return out;
}

/**
 * What free text may hold, on both sides of every form (issue 19). Control characters (NUL, line breaks,
 * tabs, DEL, the C1 range), the line and paragraph separators, and the bidirectional embeddings, overrides and
 * isolates (U+202A–E, U+2066–9) have no place in one line of plain text: a line break in a module name or a
 * title lets its author add lines of their own to an e-mail someone else reads ("Payment reference: …"), and
 * an override makes a name or a subject read backwards.
 */
const notOneLine = /[\p{Cc}\u2028\u2029\u202A-\u202E\u2066-\u2069]/u;
/** Text of several lines (concepts, a question, an answer) keeps its line feeds and tabs (code), no other. */
const notMultiLine = /[^\P{Cc}\n\t]|[\u2028\u2029\u202A-\u202E\u2066-\u2069]/u;

export const textMessages = {
  oneLine: 'Use letters, numbers and punctuation only, on one line.',
  multiLine: 'Use letters, numbers and punctuation only (pasted text can hold invisible control characters).',
} as const;

/** A name, a title, a module's name or topic: one line of plain text (refine a schema with it). */
export const isOneLine = (text: string) => !notOneLine.test(text);

/** Text of several lines; see `asLineFeeds` for the line breaks other systems send. */
export const isMultiLine = (text: string) => !notMultiLine.test(text);

/** Windows' and old Macs' line breaks as the one a textarea gives, so text pasted or sent from them passes. */
export const asLineFeeds = (text: string) => text.replace(/\r\n?/g, '\n');
