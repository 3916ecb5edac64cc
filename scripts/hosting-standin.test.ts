// The Hosting stand-in's static half sends files as Hosting does (scripts/hosting-standin.ts): an ETag of the
// content and a 304 to a request naming it, gzipped text where the client accepts it. Node's http, so that the
// answer's encoding is seen as sent (fetch would undo it).
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { request } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startHostingStandin, type HostingStandin } from './hosting-standin.ts';

let dir: string;
let standin: HostingStandin;
const script = `export const greeting = ${JSON.stringify('Sawubona. '.repeat(200))};\n`;

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'standin-'));
  await writeFile(path.join(dir, 'app.js'), script);
  await writeFile(path.join(dir, 'icon.png'), Buffer.alloc(2048, 7));
  // Nothing listens upstream: only files are asked for.
  standin = await startHostingStandin({ config: { public: '.' }, publicDir: dir, upstream: 'http://127.0.0.1:9' });
});
afterAll(async () => {
  await standin?.close();
  await rm(dir, { recursive: true, force: true });
});

function get(pathname: string, headers: Record<string, string> = {}) {
  return new Promise<{ status: number; headers: Record<string, unknown>; body: Buffer }>((resolve, reject) => {
    request(new URL(pathname, standin.url), { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
    })
      .on('error', reject)
      .end();
  });
}

test('a text file goes gzipped to a client that accepts it, whole to one that does not, with one ETag', async () => {
  const zipped = await get('/app.js', { 'accept-encoding': 'gzip, deflate, br' });
  expect(zipped.status).toBe(200);
  expect(zipped.headers['content-encoding']).toBe('gzip');
  expect(zipped.body.length).toBeLessThan(script.length / 4);
  expect(gunzipSync(zipped.body).toString()).toBe(script);
  expect(zipped.headers.etag).toMatch(/^"[\w-]+"$/);

  const whole = await get('/app.js');
  expect(whole.headers['content-encoding']).toBeUndefined();
  expect(whole.body.toString()).toBe(script);
  expect(whole.headers.etag).toBe(zipped.headers.etag);

  // An image is sent as it is.
  const image = await get('/icon.png', { 'accept-encoding': 'gzip' });
  expect(image.headers['content-encoding']).toBeUndefined();
  expect(image.body.length).toBe(2048);
});

test('a request naming the file’s ETag gets 304 and no body; a changed file gets a new ETag', async () => {
  const first = await get('/app.js');
  const again = await get('/app.js', { 'if-none-match': String(first.headers.etag) });
  expect(again.status).toBe(304);
  expect(again.body.length).toBe(0);
  expect((await get('/app.js', { 'if-none-match': '"another"' })).status).toBe(200);

  await writeFile(path.join(dir, 'app.js'), `${script}// changed\n`);
  const changed = await get('/app.js', { 'if-none-match': String(first.headers.etag) });
  expect(changed.status).toBe(200);
  expect(changed.headers.etag).not.toBe(first.headers.etag);
});
