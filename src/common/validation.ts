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
