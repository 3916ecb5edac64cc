import type { Context } from 'hono';
import type { z } from 'zod';
import { fieldErrors } from '../../common/validation.ts';
import { createError, createValidationError } from './errors.ts';

/**
 * Checks a request body against one of the shared zod schemas: JSON only (a form post or text is refused
 * before parsing), well-formed, and valid (400 with a message per field; the schemas are strict, so an
 * unknown field is refused too). Returns the parsed (trimmed, defaulted) value.
 */
export function parseJsonBody<S extends z.ZodType>(schema: S, contentType: string | undefined, text: string): z.output<S> {
  if (!contentType?.toLowerCase().startsWith('application/json')) {
    throw createError({ code: 'request.unsupported_content_type', message: 'Send the form as JSON (Content-Type: application/json).', status: 400 });
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw createError({ code: 'request.malformed_json', message: 'The request body is not valid JSON.', status: 400 });
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) throw createValidationError(fieldErrors(parsed.error));
  return parsed.data;
}

/** `parseJsonBody` for a route: reads the body (within the body limit) and checks it. */
export async function readJsonBody<S extends z.ZodType>(c: Context, schema: S): Promise<z.output<S>> {
  return parseJsonBody(schema, c.req.header('content-type'), await c.req.text());
}
