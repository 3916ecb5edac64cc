import { validator } from 'hono/validator';
import type { z } from 'zod';
import { fieldErrors } from '../../common/validation.ts';
import { createError, createValidationError } from './errors.ts';

/** A JSON body, as text: JSON only (a form post or text is refused before parsing), and well-formed. */
function readJson(contentType: string | undefined, text: string): unknown {
  if (!contentType?.toLowerCase().startsWith('application/json')) {
    throw createError({ code: 'request.unsupported_content_type', message: 'Send the form as JSON (Content-Type: application/json).', status: 400 });
  }
  try {
    return JSON.parse(text);
  } catch {
    throw createError({ code: 'request.malformed_json', message: 'The request body is not valid JSON.', status: 400 });
  }
}

/** 400 with a message per field; the shared schemas are strict, so an unknown field is refused too. */
function checkBody<S extends z.ZodType>(schema: S, json: unknown): z.output<S> {
  const parsed = schema.safeParse(json);
  if (!parsed.success) throw createValidationError(fieldErrors(parsed.error));
  return parsed.data;
}

/**
 * Checks a request body against one of the shared zod schemas and returns the parsed (trimmed, defaulted)
 * value. For a route that forwards the body elsewhere (auth.routes.ts); other routes use `jsonBody`.
 */
export function parseJsonBody<S extends z.ZodType>(schema: S, contentType: string | undefined, text: string): z.output<S> {
  return checkBody(schema, readJson(contentType, text));
}

/**
 * Hono's validator with our rules, so a route reads `c.req.valid('json')` typed from the shared schema (and
 * `hc` clients see the input type). Hono's validator parses the body itself and answers a wrong content type
 * or malformed JSON its own way, so our checks run first on the text, which Hono then reads from its cache.
 */
export function jsonBody<S extends z.ZodType>(schema: S) {
  const validate = validator('json', (value: z.input<S>): z.output<S> => checkBody(schema, value));
  const checked: typeof validate = async (c, next) => {
    readJson(c.req.header('content-type'), await c.req.text());
    return validate(c, next);
  };
  return checked;
}
