import type { Firestore } from 'firebase-admin/firestore';
import { catalogueSeed } from '../../modules/catalogue/catalogue.seed.ts';
import type { Storage } from '../storage.ts';

/**
 * What SQL's migrations do for a new database, for a new Firestore project: the catalogue starts with the
 * spec's modules. Once, marked by `setup/catalogue`: an admin who later deletes them all does not get them back
 * at the next start. Each module is added through the catalogue's repository, whose name keys refuse a second
 * copy, so two processes starting at once, or a start that stopped half-way, still leave each module once.
 */
export async function seedCatalogue(firestore: Firestore, storage: Pick<Storage, 'repos'>, now: Date): Promise<void> {
  const marker = firestore.doc('setup/catalogue');
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
