import { sql, type Selectable, type Updateable } from 'kysely';
import type { Module } from '../../../common/catalogue.ts';
import { isUniqueViolation } from '../../db/constraint-errors.ts';
import { preparedQuery } from '../../db/prepared-query.ts';
import type { Db } from '../../db/create-db.ts';
import { createDuplicateModuleNameError } from './catalogue.errors.ts';
import type { CatalogueRepository, ModuleChanges, NewModule } from './catalogue.storage.ts';
import type { ModulesTable } from './catalogue.table.ts';

type ModuleRow = Selectable<ModulesTable>;

function toModule(row: ModuleRow): Module {
  return {
    id: row.id,
    slug: row.slug,
    name: row.name,
    category: row.category,
    priceCents: row.price_cents,
    description: row.description,
    topics: JSON.parse(row.topics) as string[],
    updatedAt: row.updated_at,
  };
}

/** Two admins adding (or renaming to) the same name at once: the unique indexes decide, and the loser hears why. */
async function refuseDuplicateName<T>(write: Promise<T>): Promise<T> {
  try {
    return await write;
  } catch (error) {
    if (isUniqueViolation(error)) throw createDuplicateModuleNameError();
    throw error;
  }
}

const sameName = (name: string) => sql<boolean>`lower(name) = lower(${name})`;

const byName = preparedQuery<{ name: string }, ModuleRow>((db, arg) =>
  db
    .selectFrom('modules')
    .selectAll()
    .where(sameName(arg('name'))),
);

/** The catalogue on SQLite and PostgreSQL (`modules`). */
export function createCatalogueRepository(db: Db): CatalogueRepository {
  const maybe = (row: ModuleRow | undefined) => (row ? toModule(row) : undefined);
  return {
    list: async () => (await db.selectFrom('modules').selectAll().execute()).map(toModule),

    findById: async (id) => maybe(await db.selectFrom('modules').selectAll().where('id', '=', id).executeTakeFirst()),

    // A booking request asks for its module by name.
    findByName: async (name) => maybe((await byName(db, { name })).rows[0]),

    async findClash(name, slug, exceptId) {
      let query = db
        .selectFrom('modules')
        .select('id')
        .where((eb) => eb.or([sameName(name), eb('slug', '=', slug)]));
      if (exceptId !== undefined) query = query.where('id', '<>', exceptId);
      return (await query.executeTakeFirst())?.id;
    },

    async insert(module: NewModule) {
      const row = await refuseDuplicateName(
        db
          .insertInto('modules')
          .values({
            id: module.id,
            slug: module.slug,
            name: module.name,
            category: module.category,
            price_cents: module.priceCents,
            description: module.description,
            topics: JSON.stringify(module.topics),
            created_at: module.createdAt,
            updated_at: module.updatedAt,
          })
          .returningAll()
          .executeTakeFirstOrThrow(),
      );
      return toModule(row);
    },

    async update(id, changes: ModuleChanges) {
      const set: Updateable<ModulesTable> = {
        ...(changes.name !== undefined ? { name: changes.name } : {}),
        ...(changes.category !== undefined ? { category: changes.category } : {}),
        ...(changes.priceCents !== undefined ? { price_cents: changes.priceCents } : {}),
        ...(changes.description !== undefined ? { description: changes.description } : {}),
        ...(changes.topics !== undefined ? { topics: JSON.stringify(changes.topics) } : {}),
        updated_at: changes.updatedAt,
      };
      return maybe(
        await refuseDuplicateName(
          db.updateTable('modules').set(set).where('id', '=', id).returningAll().executeTakeFirst(),
        ),
      );
    },

    async raisePrice(id, stepCents, maxCents, now) {
      // One statement, so two raises at once both count.
      const row = await db
        .updateTable('modules')
        .set((eb) => ({ price_cents: eb('price_cents', '+', stepCents), updated_at: now }))
        .where('id', '=', id)
        .where(sql<number>`price_cents + ${stepCents}`, '<=', maxCents)
        .returningAll()
        .executeTakeFirst();
      return maybe(row);
    },

    async delete(id) {
      // The database sets the enrolments' module_id to null (they keep the name).
      const result = await db.deleteFrom('modules').where('id', '=', id).executeTakeFirst();
      return result.numDeletedRows > 0n;
    },

    async findNames(ids) {
      if (ids.length === 0) return new Map();
      const rows = await db
        .selectFrom('modules')
        .select(['id', 'name', 'slug'])
        .where('id', 'in', [...new Set(ids)])
        .execute();
      return new Map(rows.map((r) => [r.id, { name: r.name, slug: r.slug }]));
    },
  };
}
