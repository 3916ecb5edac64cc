import { execFile } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startFirestoreEmulator, type FirestoreEmulator } from '../../test/firestore-emulator.ts';
import { findClosedPort } from '../../test/harness.ts';
import { connectFirestore } from './connect.ts';
import { nodeChildEnv } from '../../test/child-env.ts';
import { deadline } from '../../test/deadline.ts';

/** The Firestore engine's connection, on Google's emulator (a fresh project id per test keeps data apart). */

let emulator: FirestoreEmulator;

beforeAll(async () => {
  emulator = await startFirestoreEmulator();
}, deadline(90_000));

afterAll(async () => {
  await emulator?.stop();
});

const newProject = () => `demo-connect-${crypto.randomUUID().slice(0, 8)}`;
/** The first read of a new project on a busy emulator is slow: the probe's wait is a deadline (deadline.ts). */
const probeTimeoutMs = deadline(10_000);

describe('connectFirestore', () => {
  test('opens the project on the emulator; two connections in one process are two projects, closed apart', async () => {
    const [a, b] = await Promise.all([
      connectFirestore({ projectId: newProject(), emulatorHost: emulator.host, probeTimeoutMs }),
      connectFirestore({ projectId: newProject(), emulatorHost: emulator.host, probeTimeoutMs }),
    ]);
    try {
      await a.firestore.doc('things/one').set({ owner: 'a' });
      expect((await a.firestore.doc('things/one').get()).data()).toEqual({ owner: 'a' });
      expect((await b.firestore.doc('things/one').get()).exists).toBe(false);
      await a.close();
      // b is untouched by a's closing.
      await b.firestore.doc('things/one').set({ owner: 'b' });
      expect((await b.firestore.doc('things/one').get()).get('owner')).toBe('b');
    } finally {
      await a.close().catch(() => undefined);
      await b.close();
    }
  });

  test('an emulator that is not running stops start-up with a message that says so, within the timeout', async () => {
    const host = `127.0.0.1:${await findClosedPort()}`;
    const started = Date.now();
    await expect(
      connectFirestore({ projectId: 'demo-nowhere', emulatorHost: host, probeTimeoutMs: 2000 }),
    ).rejects.toThrow(
      `Cannot reach Firestore project "demo-nowhere" on the emulator at ${host}: no answer within 2 s (is the emulator running?)`,
    );
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  test("without credentials, Google's Firestore is not tried: start-up says how to give them", async () => {
    // A process of its own: the credentials' location is process-wide, and this one must have none that work.
    const script = `
      import { connectFirestore } from ${JSON.stringify(new URL('./connect.ts', import.meta.url).pathname)};
      await connectFirestore({ projectId: 'tutorbook-nowhere' }).catch((error) => console.log(error.message));
    `;
    const stdout = await new Promise<string>((resolve, reject) =>
      execFile(
        process.execPath,
        ['--input-type=module', '-e', script],
        {
          env: { ...nodeChildEnv(), GOOGLE_APPLICATION_CREDENTIALS: '/nonexistent/key.json' },
          timeout: deadline(20_000),
        },
        (error, out) => (error ? reject(error) : resolve(out)),
      ),
    );
    expect(stdout).toContain(
      'Cannot reach Firestore project "tutorbook-nowhere": no Application Default Credentials (set GOOGLE_APPLICATION_CREDENTIALS to a service account key, or run `gcloud auth application-default login`): ',
    );
    expect(stdout).toContain('/nonexistent/key.json');
  });
});
