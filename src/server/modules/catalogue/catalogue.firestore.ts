import type { CollectionReference, DocumentReference, Transaction } from 'firebase-admin/firestore';
import type { Module } from '../../../common/catalogue.ts';
import type { Category } from '../../../common/roles.ts';
import { atomically, read, readAll, type FirestoreContext } from '../../storage/firestore/context.ts';
import { keyId } from '../../storage/firestore/document-ids.ts';
import { isRecordId } from '../../storage/record-ids.ts';
import { createDuplicateModuleNameError } from './catalogue.errors.ts';
import type { CatalogueRepository, ModuleChanges, NewModule } from './catalogue.storage.ts';

/**
 * The catalogue on Firestore (docs/firestore-layout.md):
 * - `modules/{id}`: the module, with `nameKey` (its name in lower case) beside the name;
 * - `moduleNames/{nameKey}` and `moduleSlugs/{slug}`: `{ moduleId }`, one per module. Firestore has no unique
 *   index: a module is written in the same transaction as these two keys, after reading them, so two admins
 *   adding one name at once conflict, the loser's transaction runs again, finds the key taken and is refused
 *   as on SQL. (A key no document id can spell, as `moduleNames/__proto__`, is its hash: document-ids.ts.)
 *
 * An id no document can have (`/api/modules/a%2Fb`) names no module, as on SQL, instead of a Firestore error.
 */
interface ModuleDoc {
  slug: string;
  name: string;
  nameKey: string;
  category: Category;
  priceCents: number;
  description: string;
  topics: string[];
  createdAt: string;
  updatedAt: string;
}

/** SQL compares names with lower(); JavaScript's lower case is Unicode's, as PostgreSQL's is. */
const nameKeyOf = (name: string) => name.toLowerCase();

const toModule = (id: string, doc: ModuleDoc): Module => ({
  id,
  slug: doc.slug,
  name: doc.name,
  category: doc.category,
  priceCents: doc.priceCents,
  description: doc.description,
  topics: doc.topics,
  updatedAt: doc.updatedAt,
});

export function createCatalogueFirestoreRepository(ctx: FirestoreContext): CatalogueRepository {
  const modules = ctx.db.collection('modules') as CollectionReference<ModuleDoc>;
  const nameRef = (name: string) =>
    ctx.db.doc(`moduleNames/${keyId(nameKeyOf(name))}`) as DocumentReference<{ moduleId: string }>;
  const slugRef = (slug: string) => ctx.db.doc(`moduleSlugs/${keyId(slug)}`) as DocumentReference<{ moduleId: string }>;

  async function clash(at: FirestoreContext, name: string, slug: string, exceptId?: string) {
    const keys = await readAll(at, [nameRef(name), slugRef(slug)]);
    return keys.map((k) => k.data()?.moduleId).find((id) => id !== undefined && id !== exceptId);
  }

  async function findById(id: string) {
    if (!isRecordId(id)) return undefined;
    const snapshot = await read(ctx, modules.doc(id));
    const doc = snapshot.data();
    return doc && toModule(id, doc);
  }

  /** Writes the module's keys for a new name or slug (after `clash` found them free); removes the old ones. */
  function moveKeys(tx: Transaction, id: string, before: ModuleDoc | undefined, after: ModuleDoc) {
    if (before?.nameKey !== after.nameKey) {
      if (before) tx.delete(nameRef(before.name));
      tx.create(nameRef(after.name), { moduleId: id });
    }
    if (before?.slug !== after.slug) {
      if (before) tx.delete(slugRef(before.slug));
      tx.create(slugRef(after.slug), { moduleId: id });
    }
  }

  return {
    list: async () => (await modules.get()).docs.map((d) => toModule(d.id, d.data())),

    findById,

    async findByName(name) {
      const id = (await read(ctx, nameRef(name))).data()?.moduleId;
      return id === undefined ? undefined : findById(id);
    },

    findClash: (name, slug, exceptId) => clash(ctx, name, slug, exceptId),

    insert: (module: NewModule) =>
      atomically(ctx, async (at) => {
        if (await clash(at, module.name, module.slug)) throw createDuplicateModuleNameError();
        const doc: ModuleDoc = {
          slug: module.slug,
          name: module.name,
          nameKey: nameKeyOf(module.name),
          category: module.category,
          priceCents: module.priceCents,
          description: module.description,
          topics: module.topics,
          createdAt: module.createdAt,
          updatedAt: module.updatedAt,
        };
        at.tx.create(modules.doc(module.id), doc);
        moveKeys(at.tx, module.id, undefined, doc);
        return toModule(module.id, doc);
      }),

    update: (id, changes: ModuleChanges) =>
      atomically(ctx, async (at) => {
        if (!isRecordId(id)) return undefined;
        const before = (await at.tx.get(modules.doc(id))).data();
        if (!before) return undefined;
        const after: ModuleDoc = {
          ...before,
          ...(changes.name !== undefined ? { name: changes.name, nameKey: nameKeyOf(changes.name) } : {}),
          ...(changes.category !== undefined ? { category: changes.category } : {}),
          ...(changes.priceCents !== undefined ? { priceCents: changes.priceCents } : {}),
          ...(changes.description !== undefined ? { description: changes.description } : {}),
          ...(changes.topics !== undefined ? { topics: changes.topics } : {}),
          updatedAt: changes.updatedAt,
        };
        if (after.nameKey !== before.nameKey && (await clash(at, after.name, after.slug, id)))
          throw createDuplicateModuleNameError();
        at.tx.set(modules.doc(id), after);
        moveKeys(at.tx, id, before, after);
        return toModule(id, after);
      }),

    raisePrice: (id, stepCents, maxCents, now) =>
      atomically(ctx, async ({ tx }) => {
        if (!isRecordId(id)) return undefined;
        const doc = (await tx.get(modules.doc(id))).data();
        if (!doc || doc.priceCents + stepCents > maxCents) return undefined;
        const raised = { ...doc, priceCents: doc.priceCents + stepCents, updatedAt: now };
        tx.update(modules.doc(id), { priceCents: raised.priceCents, updatedAt: now });
        return toModule(id, raised);
      }),

    async findNames(ids) {
      const found = await readAll(
        ctx,
        [...new Set(ids)].filter(isRecordId).map((id) => modules.doc(id)),
      );
      return new Map(found.filter((d) => d.exists).map((d) => [d.id, { name: d.data()!.name, slug: d.data()!.slug }]));
    },

    delete: (id) =>
      atomically(ctx, async ({ tx }) => {
        if (!isRecordId(id)) return false;
        const doc = (await tx.get(modules.doc(id))).data();
        if (!doc) return false;
        // Enrolments keep the module's name; the profile reads a missing module as "no longer offered".
        tx.delete(modules.doc(id));
        tx.delete(nameRef(doc.name));
        tx.delete(slugRef(doc.slug));
        return true;
      }),
  };
}
