import type { Env, MiddlewareHandler } from 'hono';
import { validator } from 'hono/validator';
import type { z } from 'zod';
import { fieldErrors } from '../../common/validation.ts';
import { createError, createValidationError } from './errors.ts';

/** A JSON body, as text: JSON only (a form post or text is refused before parsing), and well-formed. */
function readJson(contentType: string | undefined, text: string): unknown {
  if (!contentType?.toLowerCase().startsWith('application/json')) {
    throw createError({
      code: 'request.unsupported_content_type',
      message: 'Send the form as JSON (Content-Type: application/json).',
      status: 400,
    });
  }
  try {
    return JSON.parse(text);
  } catch {
    throw createError({ code: 'request.malformed_json', message: 'The request body is not valid JSON.', status: 400 });
  }
}

/** 400 with a message per field; the shared schemas are strict, so an unknown field is refused too. */
function check<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw createValidationError(fieldErrors(parsed.error));
  return parsed.data;
}

/**
 * Checks a request body against one of the shared zod schemas and returns the parsed (trimmed, defaulted)
 * value. For a route that forwards the body elsewhere (auth.routes.ts); other routes use `jsonBody`.
 */
export function parseJsonBody<S extends z.ZodType>(
  schema: S,
  contentType: string | undefined,
  text: string,
): z.output<S> {
  return check(schema, readJson(contentType, text));
}

/**
 * Checks the body as Hono's validator would, so a route reads `c.req.valid('json')` typed from the shared
 * schema, but with our answers to a wrong content type or malformed JSON, and parsing the text once (Hono's
 * validator would parse it again). Hono would type what `hc` clients send as the schema's output, asking them
 * for fields the schema defaults: the return type gives its input.
 */
export function jsonBody<S extends z.ZodType>(
  schema: S,
): MiddlewareHandler<Env, string, { in: { json: z.input<S> }; out: { json: z.output<S> } }> {
  return async (c, next) => {
    const value: unknown = check(schema, readJson(c.req.header('content-type'), await c.req.text()));
    c.req.addValidatedData('json', value as object);
    await next();
  };
}

/**
 * Hono's validator for the query string, with the same 400 as a body: a route reads `c.req.valid('query')`,
 * and `hc` clients see the parameters it takes. Hono would type them from the schema's output, which for a
 * parameter the schema transforms (`since`, text read as a position) is not what is sent: they are typed from
 * its input instead. A parameter given twice arrives as a list, which a schema of strings refuses.
 */
export function queryOf<S extends z.ZodType>(schema: S) {
  /**
   * The schema's answer to no parameters at all, the usual list read: worked out once (the schemas are pure),
   * not once per request. An answer that refuses is not kept, so a refusal's 400 is made as for any query.
   */
  let noParameters: { value: z.output<S> } | undefined;
  const checked = validator('query', (value): z.output<S> => check(schema, value)) as MiddlewareHandler;
  const handler: MiddlewareHandler = async (c, next) => {
    const url = c.req.url;
    const at = url.indexOf('?');
    if (at !== -1 && at !== url.length - 1) return checked(c, next);
    noParameters ??= { value: Object.freeze(check(schema, {})) as z.output<S> };
    c.req.addValidatedData('query', noParameters.value as object);
    await next();
  };
  return handler as MiddlewareHandler<Env, string, { in: { query: z.input<S> }; out: { query: z.output<S> } }>;
}
