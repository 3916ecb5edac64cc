import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { getRequestListener } from '@hono/node-server';
import { Hono } from 'hono';
import { hc } from 'hono/client';
import { afterAll, beforeAll, describe, expect, expectTypeOf, test } from 'vitest';
import {
  apiFetch,
  ApiError,
  apiRequest,
  fetchWithin,
  isSessionEnded,
  NetworkError,
  onSessionEnded,
  readJson,
  takePageReads,
  TimeoutError,
} from './api.ts';
import { ifNoneMatch, readRevalidated } from './revalidated.ts';

interface Module {
  id: string;
  name: string;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** How many times the slow route has answered (after its wait). */
let slowAnswers = 0;

/** A small app in our API's style: errors are `{ error: { code, message, fields? } }`. */
const app = new Hono()
  .get('/api/modules', (c) => c.json([{ id: 'm1', name: 'Algebra' }] satisfies Module[]))
  .get('/api/modules/:id', (c) =>
    c.req.param('id') === 'm1'
      ? c.json({ id: 'm1', name: 'Algebra' } satisfies Module, 200)
      : c.json({ error: { code: 'catalogue.not_found', message: 'This module no longer exists.' } }, 404),
  )
  // A list with an ETag, answered 304 when the client holds it (as the server's withEtag does).
  .get('/api/modules-revalidated', (c) =>
    c.req.header('if-none-match') === 'W/"v1"'
      ? c.body(null, 304, { etag: 'W/"v1"' })
      : c.json([{ id: 'm1', name: 'Algebra' }] satisfies Module[], 200, { etag: 'W/"v1"' }),
  )
  .post('/api/echo', async (c) =>
    c.json({ received: (await c.req.json()) as unknown, accept: c.req.header('accept') ?? '' }, 201),
  )
  .post('/api/names', (c) =>
    c.json({ error: { code: 'request.invalid', message: 'Check the form.', fields: { name: 'Enter a name.' } } }, 400),
  )
  .get('/api/me', (c) =>
    c.json({ error: { code: 'auth.unauthenticated', message: 'Please log in to continue.' } }, 401),
  )
  .get('/api/positioned', (c) => c.json({}, 200, { 'live-position': 'p7' }))
  .get('/api/broken', (c) => c.text('<html>Bad gateway</html>', 502))
  .get('/api/slow', async (c) => {
    await sleep(500);
    slowAnswers++;
    return c.json({ late: true });
  })
  .get('/api/slow-body', (c) => {
    // The headers arrive at once; the body stalls.
    const body = new ReadableStream<Uint8Array>({
      async start(controller) {
        controller.enqueue(new TextEncoder().encode('{"part":'));
        await sleep(500);
        controller.enqueue(new TextEncoder().encode('1}'));
        controller.close();
      },
    });
    return c.body(body, 200, { 'content-type': 'application/json' });
  });

type TestRoutes = typeof app;

let server: Server;
let base: string;
let client: ReturnType<typeof hc<TestRoutes>>;

beforeAll(async () => {
  server = createServer(getRequestListener(app.fetch));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  client = hc<TestRoutes>(base, { fetch: apiFetch });
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

// First in the file: the page's reads are kept from its first request on.
describe('the reads of a page', () => {
  test('each read’s live position is kept until the stream takes them, once; writes are not reads', async () => {
    await apiFetch(`${base}/api/positioned`);
    await apiFetch(`${base}/api/echo`, { method: 'POST', body: '{}', headers: { 'content-type': 'application/json' } });
    await apiFetch(`${base}/api/modules`);
    await expect(apiFetch('http://127.0.0.1:1/api/modules')).rejects.toBeInstanceOf(NetworkError);
    // With its position; an answer without one; no answer at all.
    expect(await Promise.all(takePageReads()!)).toEqual(['p7', null, null]);
    await apiFetch(`${base}/api/positioned`);
    expect(takePageReads()).toBeUndefined();
  });
});

describe('typed answers through hono’s client', () => {
  test('a list of modules arrives typed as the route declares it', async () => {
    const modules = await readJson(await client.api.modules.$get());
    expectTypeOf(modules).toEqualTypeOf<{ id: string; name: string }[]>();
    expect(modules).toEqual([{ id: 'm1', name: 'Algebra' }]);
  });

  test('a route that may refuse is typed by its success only, and the refusal is an ApiError', async () => {
    const found = await readJson(await client.api.modules[':id'].$get({ param: { id: 'm1' } }));
    expectTypeOf(found).toEqualTypeOf<{ id: string; name: string }>();
    expect(found.name).toBe('Algebra');

    const refused = await readJson(await client.api.modules[':id'].$get({ param: { id: 'gone' } })).catch(
      (e: unknown) => e,
    );
    expect(refused).toBeInstanceOf(ApiError);
    expect(refused).toMatchObject({
      status: 404,
      code: 'catalogue.not_found',
      message: 'This module no longer exists.',
    });
  });

  test('a plain Response’s body is unknown until the caller says what it is', async () => {
    const body = await readJson(await apiFetch(`${base}/api/modules`));
    expectTypeOf(body).toBeUnknown();
    expect(body).toEqual([{ id: 'm1', name: 'Algebra' }]);
  });
});

describe('asking again for a list the device holds', () => {
  test('the ETag of the copy held goes back, and a 304 is read as "not modified", not as a refusal', async () => {
    const answer = await readRevalidated(
      await client.api['modules-revalidated'].$get(undefined, { headers: ifNoneMatch('W/"v1"') }),
    );
    expect(answer).toEqual({ notModified: true, syncedTo: null });
  });

  test('a list the device does not hold (or holds an older copy of) arrives typed, with its ETag', async () => {
    for (const etag of [null, 'W/"v0"']) {
      const answer = await readRevalidated(
        await client.api['modules-revalidated'].$get(undefined, { headers: ifNoneMatch(etag) }),
      );
      expect(answer).toEqual({
        notModified: false,
        body: [{ id: 'm1', name: 'Algebra' }],
        etag: 'W/"v1"',
        syncedTo: null,
      });
      if (!answer.notModified) expectTypeOf(answer.body).toEqualTypeOf<{ id: string; name: string }[]>();
    }
  });

  test('a refusal is still an ApiError', async () => {
    const refused = await readRevalidated(
      await client.api.modules[':id'].$get({ param: { id: 'gone' } }, { headers: ifNoneMatch('W/"v1"') }),
    ).catch((e: unknown) => e);
    expect(refused).toMatchObject({ status: 404, code: 'catalogue.not_found' });
  });
});

describe('apiRequest', () => {
  test('sends JSON and asks for JSON; the answer is unknown to the types until the caller checks it', async () => {
    const answer = await apiRequest('POST', `${base}/api/echo`, { question: 'Why?' });
    expectTypeOf(answer).toBeUnknown();
    expect(answer).toEqual({ received: { question: 'Why?' }, accept: 'application/json' });
  });

  test('a refusal carries the server’s code, message and field messages', async () => {
    const error = await apiRequest('POST', `${base}/api/names`, { name: '' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({
      status: 400,
      code: 'request.invalid',
      message: 'Check the form.',
      fields: { name: 'Enter a name.' },
    });
  });

  test('an answer that is not our error shape (a proxy’s page) is still an ApiError with its status', async () => {
    const error = await apiRequest('GET', `${base}/api/broken`).catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 502, code: 'unknown' });
  });

  test('an ended session is announced to every listener, once per refusal', async () => {
    let heard = 0;
    const stop = onSessionEnded(() => heard++);
    const error = await apiRequest('GET', `${base}/api/me`).catch((e: unknown) => e);
    stop();
    await apiRequest('GET', `${base}/api/me`).catch(() => undefined);
    expect(isSessionEnded(error)).toBe(true);
    expect(heard).toBe(1);
  });
});

describe('timeouts and lost connections', () => {
  test('a server that takes longer than allowed gives a TimeoutError, which is a NetworkError', async () => {
    const answeredBefore = slowAnswers;
    const error = await apiRequest('GET', `${base}/api/slow`, undefined, { timeoutMs: 100 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TimeoutError);
    expect(error).toBeInstanceOf(NetworkError);
    // Given up before the server answered (not timed by the clock, which a busy machine stretches).
    expect(slowAnswers).toBe(answeredBefore);
  });

  test('the time allowed covers the body too', async () => {
    const error = await apiRequest('GET', `${base}/api/slow-body`, undefined, { timeoutMs: 150 }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(TimeoutError);
  });

  test('within the time allowed the slow answer arrives', async () => {
    await expect(apiRequest('GET', `${base}/api/slow`, undefined, { timeoutMs: 5_000 })).resolves.toEqual({
      late: true,
    });
  });

  test('the caller’s own cancel is passed on as an abort, not as a lost connection', async () => {
    const controller = new AbortController();
    const pending = apiRequest('GET', `${base}/api/slow`, undefined, { signal: controller.signal });
    controller.abort();
    const error = await pending.catch((e: unknown) => e);
    expect(error).not.toBeInstanceOf(NetworkError);
    expect(error).toMatchObject({ name: 'AbortError' });
  });

  test('the caller’s signal and the timeout work together through hono’s client', async () => {
    const controller = new AbortController();
    const timed = client.api.slow.$get(undefined, { fetch: fetchWithin(100) });
    await expect(timed).rejects.toBeInstanceOf(TimeoutError);
    const cancelled = client.api.slow.$get(undefined, { init: { signal: controller.signal } });
    controller.abort();
    await expect(cancelled).rejects.toMatchObject({ name: 'AbortError' });
  });

  test('a server that cannot be reached gives a NetworkError, not a timeout', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const error = await apiRequest('GET', `http://127.0.0.1:${port}/api/modules`).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NetworkError);
    expect(error).not.toBeInstanceOf(TimeoutError);
  });
});
