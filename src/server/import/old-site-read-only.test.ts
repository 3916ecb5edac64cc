import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { firestoreTestsRun, startOwnFirestoreEmulator, type FirestoreEmulator } from '../test/firestore-emulator.ts';
import { findClosedPort } from '../test/free-port.ts';
import { seedOldSite, type OldSite } from '../test/old-site.ts';
import { deadline } from '../test/deadline.ts';

/**
 * The rules that freeze the old site for the final import (deploy/old-site-read-only/, docs/moving-in-from-
 * firebase.md): on an emulator that enforces them, the old site's browsers, signed in as the old site signs
 * them in, still read and can no longer write; visitors read nothing. firebase-admin (the import) is not
 * governed by rules, so the import still reads.
 */
const folder = path.resolve('deploy/old-site-read-only');
let emulator: FirestoreEmulator;
let workDir: string;
let site: OldSite;

beforeAll(async () => {
  // An emulator of its own: the shared one loads no rules.
  emulator = await startOwnFirestoreEmulator(60_000, findClosedPort, [
    `--rules=${path.join(folder, 'firestore.rules')}`,
  ]);
  workDir = await mkdtemp(path.join(os.tmpdir(), 'tutorbook-old-site-rules-'));
  site = await seedOldSite(emulator.host, workDir);
}, deadline(90_000));

afterAll(async () => {
  await emulator?.stop();
  if (workDir) await rm(workDir, { recursive: true, force: true });
});

/**
 * A Firebase ID token as the emulator takes it (unsigned): what the old site's web app sends once someone has
 * logged in there.
 */
function idToken(uid: string): string {
  const part = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const now = Math.floor(Date.now() / 1000);
  return `${part({ alg: 'none', typ: 'JWT' })}.${part({
    iss: `https://securetoken.google.com/${site.projectId}`,
    aud: site.projectId,
    sub: uid,
    user_id: uid,
    iat: now,
    exp: now + 3600,
    auth_time: now,
    firebase: { sign_in_provider: 'password', identities: {} },
  })}.`;
}

/** Firestore's REST API as a browser calls it, on the old site's `(default)` database. */
function browser(uid?: string) {
  const base = `http://${emulator.host}/v1/projects/${site.projectId}/databases/(default)/documents`;
  return (method: string, documentPath: string, body?: object) =>
    fetch(`${base}/${documentPath}`, {
      method,
      headers: { 'content-type': 'application/json', ...(uid ? { authorization: `Bearer ${idToken(uid)}` } : {}) },
      body: body && JSON.stringify(body),
    });
}

describe.skipIf(!firestoreTestsRun)('the old site, frozen', () => {
  test('a signed-in user of the old site still reads, and writes nothing: no update, create or delete', async () => {
    const thandi = browser(site.other.uid);
    const read = await thandi('GET', `questions/q1${site.tag}`);
    expect(read.status, await read.clone().text()).toBe(200);
    expect(((await read.json()) as { fields: { title: { stringValue: string } } }).fields.title.stringValue).toBe(
      'How do I reverse a linked list?',
    );
    expect((await thandi('GET', `bookings/b1${site.tag}`)).status).toBe(200);
    expect((await thandi('GET', `questions/q1${site.tag}/answers/a1${site.tag}`)).status).toBe(200);

    const writes = [
      thandi('PATCH', `bookings/b1${site.tag}?updateMask.fieldPaths=status`, {
        fields: { status: { stringValue: 'Confirmed' } },
      }),
      thandi('PATCH', `questions/q1${site.tag}?updateMask.fieldPaths=upvotes`, {
        fields: { upvotes: { integerValue: '33' } },
      }),
      thandi('POST', `questions?documentId=new${site.tag}`, { fields: { title: { stringValue: 'Asked too late' } } }),
      thandi('POST', `questions/q1${site.tag}/answers`, { fields: { text: { stringValue: 'Answered too late' } } }),
      thandi('DELETE', `enrolments/${site.other.uid}`),
    ];
    for (const refused of await Promise.all(writes)) expect(refused.status, await refused.text()).toBe(403);
    // Unchanged, as the final import will read it.
    const after = (await (await thandi('GET', `bookings/b1${site.tag}`)).json()) as {
      fields: { status: { stringValue: string } };
    };
    expect(after.fields.status.stringValue).toBe('Pending');
    expect((await thandi('GET', `enrolments/${site.other.uid}`)).status).toBe(200);
  });

  test('a visitor reads nothing', async () => {
    expect((await browser()('GET', `questions/q1${site.tag}`)).status).toBe(403);
  });

  test('its firebase.json deploys these rules to the (default) database alone', async () => {
    const config = JSON.parse(await readFile(path.join(folder, 'firebase.json'), 'utf8')) as Record<string, unknown>;
    // One database, and nothing else a `firebase deploy` with this file could touch (hosting, indexes).
    expect(config).toEqual({ firestore: { database: '(default)', rules: 'firestore.rules' } });
  });
});
