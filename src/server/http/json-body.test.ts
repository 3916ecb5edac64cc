import { Hono } from 'hono';
import { pino } from 'pino';
import { describe, expect, test } from 'vitest';
import { z } from '../../common/zod.ts';
import { errorHandler } from './error-handler.ts';
import { queryOf } from './json-body.ts';

/** A route that answers with what it was given, and counts the checks its schema made. */
function appWith<S extends z.ZodType>(schema: S) {
  let checks = 0;
  const counted = z.any().transform((value: unknown) => {
    checks++;
    return value;
  });
  const app = new Hono()
    .get('/', queryOf(counted.pipe(schema)), (c) => c.json({ query: c.req.valid('query') as unknown }))
    .onError(errorHandler(pino({ level: 'silent' })));
  const read = async (path: string) => {
    const response = await app.request(path);
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  };
  return { read, checks: () => checks };
}

describe('queryOf', () => {
  test('no parameters: the schema decides once, defaults included, and every such read gets its answer', async () => {
    const { read, checks } = appWith(
      z.strictObject({ sort: z.enum(['new', 'old']).default('new'), q: z.string().optional() }),
    );
    expect(await read('/')).toEqual({ status: 200, body: { query: { sort: 'new' } } });
    expect(await read('/?')).toEqual({ status: 200, body: { query: { sort: 'new' } } });
    expect(await read('/')).toEqual({ status: 200, body: { query: { sort: 'new' } } });
    expect(checks()).toBe(1);
    // Parameters are checked at every read, and do not change what no parameters give.
    expect(await read('/?sort=old&q=x')).toEqual({ status: 200, body: { query: { sort: 'old', q: 'x' } } });
    expect(await read('/?sort=sideways')).toMatchObject({ status: 400 });
    expect(await read('/?other=1')).toMatchObject({ status: 400 });
    expect(await read('/')).toEqual({ status: 200, body: { query: { sort: 'new' } } });
    expect(checks()).toBe(4);
  });

  test('a schema that refuses no parameters refuses every such read with its message', async () => {
    const { read, checks } = appWith(z.strictObject({ q: z.string({ error: 'Say what to look for.' }) }));
    for (let i = 0; i < 2; i++) {
      const { status, body } = await read('/');
      expect(status).toBe(400);
      expect(JSON.stringify(body)).toContain('Say what to look for.');
    }
    expect(checks()).toBe(2);
    expect(await read('/?q=x')).toEqual({ status: 200, body: { query: { q: 'x' } } });
  });
});
