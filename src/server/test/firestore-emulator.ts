import { spawn } from 'node:child_process';
import { deadline } from './deadline.ts';
import { findClosedPort } from './free-port.ts';

/**
 * Google's Firestore emulator (`gcloud emulators firestore start`, Debian package
 * google-cloud-cli-firestore-emulator, on Java 17: FIREBASE.md) on a free port, for the tests of the Firebase
 * import. It keeps projects apart, so each test seeds a project id of its own. A machine without it fails
 * the test with a message that says what to install: a skipped test would pass CI without testing anything.
 */
export interface FirestoreEmulator {
  /** `127.0.0.1:<port>`, as FIRESTORE_EMULATOR_HOST takes it. */
  host: string;
  stop(): Promise<void>;
}

const missing =
  'The Firebase import tests need Google’s Firestore emulator: install the Debian package ' +
  'google-cloud-cli-firestore-emulator (it brings `gcloud emulators firestore`) and a Java 17 runtime.';

/**
 * The emulator the run shares when TEST_FIRESTORE_EMULATOR_HOST or FIRESTORE_EMULATOR_HOST names one (the
 * run's global setup, vitest.global-setup.ts, or a developer's own), whose `stop` leaves it running; otherwise
 * one of the caller's.
 */
export async function startFirestoreEmulator(timeoutMs = 60_000): Promise<FirestoreEmulator> {
  // eslint-disable-next-line no-restricted-properties -- test settings, not app configuration (env.ts)
  const shared = process.env.TEST_FIRESTORE_EMULATOR_HOST || process.env.FIRESTORE_EMULATOR_HOST;
  if (shared) return { host: shared, stop: async () => {} };
  return startOwnFirestoreEmulator(timeoutMs);
}

/**
 * A new emulator on a free port, in its own process group; `stop` ends it. The port is free when chosen, but
 * another process (another emulator's WebSocket server, which takes a port of its own) can bind it before
 * this one does: that start is tried again on another port.
 */
export async function startOwnFirestoreEmulator(
  timeoutMs = 60_000,
  pickPort: () => Promise<number> = findClosedPort,
  /** More flags for `gcloud emulators firestore start`, e.g. `--rules=<file>`. */
  flags: readonly string[] = [],
): Promise<FirestoreEmulator> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await startOn(await pickPort(), timeoutMs, flags);
    } catch (error) {
      if (!(error instanceof PortTaken) || attempt === 5) throw error;
    }
  }
}

class PortTaken extends Error {}

async function startOn(port: number, timeoutMs: number, flags: readonly string[]): Promise<FirestoreEmulator> {
  const host = `127.0.0.1:${port}`;
  // Its own process group (detached), so that stopping it also stops the Java process gcloud starts.
  const child = spawn('gcloud', ['emulators', 'firestore', 'start', `--host-port=${host}`, '--quiet', ...flags], {
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<Error>((resolve) => {
    child.once('error', (error) => resolve(new Error(`${missing} (${error.message})`)));
    child.once('exit', (code) => {
      const Failure = /BindException|Address already in use/.test(output) ? PortTaken : Error;
      resolve(new Failure(`The Firestore emulator stopped (exit ${code}):\n${output}`));
    });
  });
  const exitedEarly = exited.then((error) => ({ error }));

  // Scaled by the time factor: Java's start-up takes several times longer on a loaded machine.
  const withinMs = deadline(timeoutMs);
  const until = Date.now() + withinMs;
  for (;;) {
    const ready = await Promise.race([isReady(host), exitedEarly]);
    if (typeof ready === 'object') throw ready.error;
    if (ready) break;
    if (Date.now() > until) {
      stopGroup(child.pid);
      throw new Error(`The Firestore emulator did not answer on ${host} within ${withinMs} ms:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return {
    host,
    async stop() {
      if (child.exitCode !== null) return;
      stopGroup(child.pid);
      await exited;
    },
  };
}

/** The emulator answers `Ok` on its root once it takes requests. */
async function isReady(host: string): Promise<boolean> {
  try {
    const response = await fetch(`http://${host}/`, { signal: AbortSignal.timeout(1000) });
    return (await response.text()).trim() === 'Ok';
  } catch {
    return false;
  }
}

function stopGroup(pid: number | undefined) {
  if (pid === undefined) return;
  try {
    process.kill(-pid, 'SIGTERM');
  } catch {
    // Already gone.
  }
}

/**
 * Whether this run includes the tests of Firestore alone (the engine's parts, the Firestore halves of the
 * contract tests): in the SQLite run and the Firestore run, not again in the PostgreSQL run (.ci/run).
 */
// eslint-disable-next-line no-restricted-properties -- a test setting, not app configuration (env.ts)
export const firestoreTestsRun = !/^postgres(ql)?:/.test(process.env.TEST_DATABASE_URL ?? '');
