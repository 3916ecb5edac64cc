import { applicationDefault, deleteApp, initializeApp } from 'firebase-admin/app';
import { getFirestore, type Firestore } from 'firebase-admin/firestore';

/**
 * The Firestore engine's connection (`DATABASE_URL=firestore://<project-id>[/<database-id>]`, env.ts): the
 * emulator at `FIRESTORE_EMULATOR_HOST` when set, else the real project through Application Default Credentials
 * (`GOOGLE_APPLICATION_CREDENTIALS`, or `gcloud auth application-default login`).
 */
export interface FirestoreConnection {
  readonly firestore: Firestore;
  readonly projectId: string;
  /** `(default)`, or a named database of the project (Firestore's multiple databases). */
  readonly databaseId: string;
  /** Ends the connection's app: its channels close, and the process may exit. A second call does nothing. */
  close(): Promise<void>;
}

export interface FirestoreOptions {
  projectId: string;
  /** A named database of the project; unset: `(default)`. */
  databaseId?: string;
  /** `host:port` of an emulator; unset: Google's Firestore. */
  emulatorHost?: string;
  /** How long the first read may take before start-up gives up on the project. */
  probeTimeoutMs?: number;
}

/**
 * Opens the project and reads one document, so that a wrong project, missing credentials or an emulator that
 * is not running stop start-up here with a message that says which, instead of failing the first request.
 * Each call is a named app of its own: tests open several projects in one process, and closing one leaves the
 * others alone.
 */
export async function connectFirestore(options: FirestoreOptions): Promise<FirestoreConnection> {
  const { projectId, emulatorHost, probeTimeoutMs = 10_000 } = options;
  const databaseId = options.databaseId ?? defaultDatabase;
  const where = describeFirestore({ projectId, databaseId, emulatorHost });
  const credential = applicationDefault();
  // Without credentials the client fails outside any promise held here (the process dies with a stack trace):
  // asking for a token first fails where start-up can say what to do (as the Firebase import does).
  if (!emulatorHost) {
    await credential.getAccessToken().catch((error: unknown) => {
      throw new Error(
        `Cannot reach ${where}: no Application Default Credentials (set GOOGLE_APPLICATION_CREDENTIALS to a ` +
          `service account key, or run \`gcloud auth application-default login\`): ${messageOf(error)}`,
        { cause: error },
      );
    });
  }
  const app = initializeApp({ projectId, credential }, `firestore-${crypto.randomUUID()}`);
  // Every part that stores (repositories, better-auth's adapter, the event bus) is handed this one client, so
  // all of them read and write the database DATABASE_URL names.
  const firestore = getFirestore(app, databaseId);
  // The emulator needs no credentials; naming the universe keeps the client from probing for Google's metadata
  // server first (a 403 on every machine outside Google Cloud, printed as a warning).
  if (emulatorHost) firestore.settings({ host: emulatorHost, ssl: false, universeDomain: 'googleapis.com' });
  // Idempotent: a shutdown path may close what a failed start already closed.
  let closing: Promise<void> | undefined;
  const close = () => (closing ??= deleteApp(app));
  try {
    await probe(firestore, probeTimeoutMs);
  } catch (error) {
    await close().catch(() => undefined);
    const reason =
      error instanceof ProbeTimeout
        ? `no answer within ${probeTimeoutMs / 1000} s${emulatorHost ? ' (is the emulator running?)' : ''}`
        : messageOf(error);
    throw new Error(`Cannot reach ${where}: ${reason}${missingDatabaseHint(error, projectId, databaseId)}`, {
      cause: error,
    });
  }
  return { firestore, projectId, databaseId, close };
}

const defaultDatabase = '(default)';

/** `Firestore project "p"`, `database "tutorbook" of Firestore project "p"`, with the emulator when there is one. */
export function describeFirestore(target: { projectId: string; databaseId?: string; emulatorHost?: string }): string {
  const database =
    target.databaseId && target.databaseId !== defaultDatabase ? `database "${target.databaseId}" of ` : '';
  const emulator = target.emulatorHost ? ` on the emulator at ${target.emulatorHost}` : '';
  return `${database}Firestore project "${target.projectId}"${emulator}`;
}

/** gRPC's NOT_FOUND: Google's answer for a database the project does not have (the emulator makes one instead). */
const notFound = 5;
function missingDatabaseHint(error: unknown, projectId: string, databaseId: string): string {
  if ((error as { code?: unknown } | undefined)?.code !== notFound || databaseId === defaultDatabase) return '';
  return (
    `. Create the database first: gcloud firestore databases create --project=${projectId} ` +
    `--database=${databaseId} --location=<region, e.g. africa-south1>`
  );
}

class ProbeTimeout extends Error {}

/**
 * One read of a document that need not exist: cheap, and it fails on a project that does not exist, has no
 * Firestore database, or refuses the credentials. The client retries an unreachable host on its own for a long
 * time, hence the timer.
 */
async function probe(firestore: Firestore, timeoutMs: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new ProbeTimeout()), timeoutMs);
  });
  try {
    await Promise.race([firestore.doc('syncCounters/probe').get(), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));
