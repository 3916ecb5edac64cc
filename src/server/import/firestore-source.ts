import { applicationDefault, deleteApp, initializeApp } from 'firebase-admin/app';
import { getFirestore, Timestamp, type DocumentSnapshot } from 'firebase-admin/firestore';

/** A Firestore document as the import reads it: its id, its fields, and when Firestore says it was made. */
export interface SourceDoc {
  id: string;
  data: Record<string, unknown>;
  /** The document's own creation time (UTC ISO): the fallback for a record without `createdAt`. */
  createTime: string;
}

/** The old site's collections (spec §3). */
export interface FirestoreData {
  questions: (SourceDoc & { answers: SourceDoc[] })[];
  modules: SourceDoc[];
  bookings: SourceDoc[];
  enrolments: SourceDoc[];
}

const toDoc = (snapshot: DocumentSnapshot): SourceDoc => ({
  id: snapshot.id,
  data: snapshot.data() ?? {},
  createTime: (snapshot.createTime ?? Timestamp.now()).toDate().toISOString(),
});

/**
 * Reads every collection of the old site from a Firestore project: the emulator at `emulatorHost` when given,
 * else the real project through Application Default Credentials (`gcloud auth application-default login`).
 */
export async function readFirestore(options: { projectId: string; emulatorHost?: string }): Promise<FirestoreData> {
  const credential = applicationDefault();
  // Without credentials the Firestore client fails outside any promise the caller holds (the process dies with
  // a stack trace): asking for a token first fails here instead, where the CLI can say what to do.
  if (!options.emulatorHost) await credential.getAccessToken();
  // A named app of its own, so two imports in one process (the tests) never share one.
  const app = initializeApp({ projectId: options.projectId, credential }, `import-${crypto.randomUUID()}`);
  try {
    const firestore = getFirestore(app);
    // The emulator needs no credentials; naming the universe keeps the client from probing for Google's
    // metadata server first (a 403 on every machine outside Google Cloud, printed as a warning).
    if (options.emulatorHost)
      firestore.settings({ host: options.emulatorHost, ssl: false, universeDomain: 'googleapis.com' });
    const all = async (name: string) => (await firestore.collection(name).get()).docs.map(toDoc);
    const questionSnapshots = (await firestore.collection('questions').get()).docs;
    const questions = await Promise.all(
      questionSnapshots.map(async (q) => ({
        ...toDoc(q),
        answers: (await q.ref.collection('answers').get()).docs.map(toDoc),
      })),
    );
    const [modules, bookings, enrolments] = await Promise.all([all('modules'), all('bookings'), all('enrolments')]);
    return { questions, modules, bookings, enrolments };
  } finally {
    await deleteApp(app);
  }
}
