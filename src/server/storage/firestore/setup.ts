import type { Firestore } from 'firebase-admin/firestore';
import { testimonialSeed } from '../../../common/testimonials-seed.ts';
import { catalogueSeed } from '../../modules/catalogue/catalogue.seed.ts';
import { createTestimonialsFirestoreRepository } from '../../modules/testimonials/testimonials.firestore.ts';
import type { Storage } from '../storage.ts';
import { transact } from './context.ts';

/**
 * The document that says a Firestore database is TutorBook's: written at set-up, before anything else, so
 * every database TutorBook has written to carries it (docs/moving-in-from-firebase.md).
 */
export const tutorBookMarker = 'setup/tutorbook';
/** The catalogue's own marker (below): a database set up before `setup/tutorbook` existed has this one. */
const catalogueMarker = 'setup/catalogue';

/**
 * The collections TutorBook's layout shares with the old Firebase site (spec §3, docs/firestore-layout.md).
 * Before set-up TutorBook has written none of them, so a record in one belongs to someone else: a module
 * only if it lacks the `slug` every module of TutorBook's has (a start stopped half-way through the seeding,
 * before this marker existed, left such modules and no marker).
 */
const sharedCollections = ['questions', 'bookings', 'enrolments', 'modules'] as const;

/**
 * Stops start-up (the server, the CLI's staff commands, the import's target) on a Firestore database that
 * holds another site's records and no TutorBook marker: with the old site's collection names, TutorBook's
 * writes would land among its live records (issue 33: the import once wrote 39 users and 10 modules into
 * them). A database with the marker, or an empty one, goes on; the empty one is marked first.
 */
export async function requireOwnDatabase(
  firestore: Firestore,
  target: { projectId: string; databaseId: string; emulatorHost?: string },
  now: Date,
): Promise<void> {
  const [marker, catalogue] = await firestore.getAll(firestore.doc(tutorBookMarker), firestore.doc(catalogueMarker));
  if (marker?.exists) return;
  if (!catalogue?.exists) {
    const found = await foreignRecords(firestore);
    if (found.length > 0) throw new ForeignDatabaseError(target, found);
  }
  await firestore.doc(tutorBookMarker).set({ setUpAt: now.toISOString() });
}

async function foreignRecords(firestore: Firestore): Promise<string[]> {
  const found = await Promise.all(
    sharedCollections.map(async (name) => {
      const docs = (
        await firestore
          .collection(name)
          .limit(name === 'modules' ? 50 : 1)
          .get()
      ).docs;
      const foreign = name === 'modules' ? docs.filter((d) => typeof d.get('slug') !== 'string') : docs;
      return foreign.slice(0, 1).map((d) => d.ref.path);
    }),
  );
  return found.flat();
}

export class ForeignDatabaseError extends Error {
  constructor(target: { projectId: string; databaseId: string; emulatorHost?: string }, found: readonly string[]) {
    super(
      `The Firestore database "${target.databaseId}" of project "${target.projectId}"` +
        `${target.emulatorHost ? ` on the emulator at ${target.emulatorHost}` : ''} holds another site's records (${found.join(', ')}) and no TutorBook marker (${tutorBookMarker}). ` +
        `TutorBook's collections have the old Firebase site's names (${sharedCollections.join(', ')}), so it would ` +
        'write among those records: nothing was written. Give TutorBook a database of its own, e.g. ' +
        `DATABASE_URL=firestore://${target.projectId}/tutorbook (a named Firestore database of the same project), another ` +
        'project, or PostgreSQL (docs/moving-in-from-firebase.md).',
    );
  }
}

/**
 * What SQL's migrations do for a new database, for a new Firestore project: the catalogue starts with the
 * spec's modules. Once, marked by `setup/catalogue`: an admin who later deletes them all does not get them back
 * at the next start. Each module is added through the catalogue's repository, whose name keys refuse a second
 * copy, so two processes starting at once, or a start that stopped half-way, still leave each module once.
 */
export async function seedCatalogue(firestore: Firestore, storage: Pick<Storage, 'repos'>, now: Date): Promise<void> {
  const marker = firestore.doc(catalogueMarker);
  if ((await marker.get()).exists) return;
  const at = now.toISOString();
  for (const module of catalogueSeed) {
    try {
      await storage.repos.catalogue.insert({ ...module, id: crypto.randomUUID(), createdAt: at, updatedAt: at });
    } catch (error) {
      if ((error as { code?: unknown }).code !== 'modules.duplicate_name') throw error;
    }
  }
  await marker.set({ seededAt: at });
}

/** The testimonials' marker: seeded once, so testimonials the admin later changes are never put back. */
const testimonialsMarker = 'setup/testimonials';

/**
 * What SQL's migration 0015 does for a new database, for a Firestore one: the twelve testimonials, in order. In
 * one transaction with its marker, so two processes starting at once, or one started again after a failure,
 * leave each testimonial once (the loser's transaction runs again and finds the marker).
 */
export async function seedTestimonials(firestore: Firestore, now: Date): Promise<void> {
  const marker = firestore.doc(testimonialsMarker);
  if ((await marker.get()).exists) return;
  const at = now.toISOString();
  await transact(firestore, async (tx) => {
    if ((await tx.get(marker)).exists) return;
    const repo = createTestimonialsFirestoreRepository({ db: firestore, tx });
    for (const [position, text] of testimonialSeed.entries())
      await repo.insert({ ...text, id: crypto.randomUUID(), hidden: false, position, createdAt: at, updatedAt: at });
    tx.create(marker, { seededAt: at });
  });
}
