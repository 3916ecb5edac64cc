import { sql, type Selectable, type Updateable } from 'kysely';
import type { Db } from '../../db/create-db.ts';
import type { ModulesTable } from './catalogue.table.ts';

export type ModuleRow = Selectable<ModulesTable>;

export function listModules(db: Db): Promise<ModuleRow[]> {
  return db.selectFrom('modules').selectAll().execute();
}

export function findModuleById(db: Db, id: string): Promise<ModuleRow | undefined> {
  return db.selectFrom('modules').selectAll().where('id', '=', id).executeTakeFirst();
}

/** A module other than `exceptId` whose name equals `name` ignoring case, or whose slug is `slug`. */
export function findModuleByNameOrSlug(db: Db, name: string, slug: string, exceptId?: string) {
  let query = db
    .selectFrom('modules')
    .select('id')
    .where((eb) => eb.or([eb(sql`lower(name)`, '=', sql`lower(${name})`), eb('slug', '=', slug)]));
  if (exceptId !== undefined) query = query.where('id', '<>', exceptId);
  return query.executeTakeFirst();
}

export function insertModule(db: Db, row: ModuleRow): Promise<ModuleRow> {
  return db.insertInto('modules').values(row).returningAll().executeTakeFirstOrThrow();
}

/** Applies `changes` (enrolments show the module's current name: the profile reads it from here). */
export function updateModule(db: Db, id: string, changes: Updateable<ModulesTable>): Promise<ModuleRow | undefined> {
  return db.updateTable('modules').set(changes).where('id', '=', id).returningAll().executeTakeFirst();
}

/**
 * Adds `stepCents` in one statement, so two raises at once both count; `undefined` when there is no such
 * module or the new price would pass `maxCents`.
 */
export function raisePrice(
  db: Db,
  id: string,
  stepCents: number,
  maxCents: number,
  now: string,
): Promise<ModuleRow | undefined> {
  return db
    .updateTable('modules')
    .set((eb) => ({ price_cents: eb('price_cents', '+', stepCents), updated_at: now }))
    .where('id', '=', id)
    .where(sql<number>`price_cents + ${stepCents}`, '<=', maxCents)
    .returningAll()
    .executeTakeFirst();
}

/** Deletes the module; the database sets its enrolments' module_id to null (they keep the name). */
export async function deleteModule(db: Db, id: string): Promise<boolean> {
  const result = await db.deleteFrom('modules').where('id', '=', id).executeTakeFirst();
  return result.numDeletedRows > 0n;
}
