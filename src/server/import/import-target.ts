import { ImportStoppedError } from './firebase-auth-export.ts';

/**
 * Where the import reads and where it writes. The old site's records are always in its project's `(default)`
 * database (a Firebase project's only one until 2023, and the one the Firebase web SDK opens unless told
 * otherwise); the target is what DATABASE_URL names.
 */
export interface ImportEnds {
  source: { projectId: string; emulatorHost?: string };
  /** Undefined: the target is SQLite or PostgreSQL. */
  target?: { projectId: string; databaseId: string; emulatorHost?: string };
}

/**
 * Refuses a target that is its source: the same database of the same project on the same Firestore (one
 * emulator, or Google's). TutorBook's layout has the old site's collection names (`questions`, `bookings`,
 * `modules`, `enrolments`), so the import would write among the records it reads, and into the live site (a
 * dry run crashed on them; a real run wrote 39 users and 10 modules there before dying: issue 33). Checked
 * before anything is read or written.
 */
export function requireSeparateTarget({ source, target }: ImportEnds): void {
  if (!target) return;
  const sameFirestore = (source.emulatorHost ?? 'google') === (target.emulatorHost ?? 'google');
  if (!sameFirestore || source.projectId !== target.projectId || target.databaseId !== '(default)') return;
  throw new ImportStoppedError(
    `DATABASE_URL names the old site's own data: the (default) database of Firestore project ${source.projectId}` +
      `${target.emulatorHost ? ` on the emulator at ${target.emulatorHost}` : ''}, which the import reads. TutorBook's ` +
      'collections have the same names (questions, bookings, modules, enrolments), so it would write among the ' +
      'old records while the old site still uses them. Nothing was read or written.\n' +
      `Give the new site a database of its own: DATABASE_URL=firestore://${source.projectId}/tutorbook (a named ` +
      `database of the same project; on Google create it first: gcloud firestore databases create ` +
      `--project=${source.projectId} --database=tutorbook --location=<region>), another project, or PostgreSQL. ` +
      'docs/moving-in-from-firebase.md says which to choose.',
  );
}
