import type { z } from 'zod';
import {
  priceLimits,
  slugify,
  type createModuleInputSchema,
  type Module,
  type updateModuleInputSchema,
} from '../../../common/catalogue.ts';
import { categories } from '../../../common/roles.ts';
import type { Db } from '../../db/create-db.ts';
import { isUniqueViolation } from '../../db/constraint-errors.ts';
import { createCatalogueCache, type CatalogueCache, type CatalogueSnapshot } from './catalogue.cache.ts';
import { createDuplicateModuleNameError, createModuleNotFoundError, createNameWithoutSlugError, createPriceLimitError } from './catalogue.errors.ts';
import * as repo from './catalogue.repository.ts';

export interface CatalogueDeps {
  db: Db;
  cache: CatalogueCache;
  now?: () => Date;
}

/** The catalogue's dependencies, with a cache that loads from `db`. One per server process. */
export function createCatalogueDeps(db: Db, now?: () => Date): CatalogueDeps {
  return { db, now, cache: createCatalogueCache(() => loadModules(db)) };
}

const collator = new Intl.Collator('en');
/** Sorted here rather than in SQL: SQLite and PostgreSQL collate names differently ("Data Structures" / "Databases"). */
const byCategoryThenName = (a: Module, b: Module) =>
  categories.indexOf(a.category) - categories.indexOf(b.category) || collator.compare(a.name, b.name);

async function loadModules(db: Db): Promise<Module[]> {
  return (await repo.listModules(db)).map(toModule).sort(byCategoryThenName);
}

function toModule(row: repo.ModuleRow): Module {
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

const nowIso = (deps: CatalogueDeps) => (deps.now ?? (() => new Date()))().toISOString();

/** The whole catalogue, by category then name (from memory; see catalogue.cache.ts). */
export function listCatalogue(deps: CatalogueDeps): Promise<CatalogueSnapshot> {
  return deps.cache.get();
}

export async function findModuleBySlug(deps: CatalogueDeps, slug: string): Promise<Module | undefined> {
  return (await deps.cache.get()).bySlug.get(slug);
}

export async function requireModuleBySlug(deps: CatalogueDeps, slug: string): Promise<Module> {
  const module = await findModuleBySlug(deps, slug);
  if (!module) throw createModuleNotFoundError();
  return module;
}

/** Adds a module (the caller has checked the admin role). Its page address is made from its name. */
export async function createModule(deps: CatalogueDeps, input: z.output<typeof createModuleInputSchema>): Promise<Module> {
  const slug = slugify(input.name);
  if (!slug) throw createNameWithoutSlugError();
  if (await repo.findModuleByNameOrSlug(deps.db, input.name, slug)) throw createDuplicateModuleNameError();
  const now = nowIso(deps);
  let row: repo.ModuleRow;
  try {
    row = await repo.insertModule(deps.db, {
      id: crypto.randomUUID(),
      slug,
      name: input.name,
      category: input.category,
      price_cents: input.priceCents,
      description: input.description,
      topics: JSON.stringify(input.topics),
      created_at: now,
      updated_at: now,
    });
  } catch (error) {
    // Two admins adding the same name at once: the unique indexes decide, and the loser hears why.
    if (isUniqueViolation(error)) throw createDuplicateModuleNameError();
    throw error;
  }
  deps.cache.invalidate();
  return toModule(row);
}

/**
 * Changes any of name, category, price, description and topics; fields left out stay. A rename keeps the
 * slug: /modules/<slug> links already shared, bookmarked or stored offline keep working. The new name must
 * still not equal another module's (any case) nor make another module's page address.
 */
export async function updateModule(deps: CatalogueDeps, id: string, input: z.output<typeof updateModuleInputSchema>): Promise<Module> {
  if (input.name !== undefined) {
    if (!(await repo.findModuleById(deps.db, id))) throw createModuleNotFoundError();
    const slug = slugify(input.name);
    if (!slug) throw createNameWithoutSlugError();
    if (await repo.findModuleByNameOrSlug(deps.db, input.name, slug, id)) throw createDuplicateModuleNameError();
  }
  let row: repo.ModuleRow | undefined;
  try {
    row = await repo.updateModule(deps.db, id, {
      ...(input.name !== undefined ? { name: input.name } : {}),
      ...(input.category !== undefined ? { category: input.category } : {}),
      ...(input.priceCents !== undefined ? { price_cents: input.priceCents } : {}),
      ...(input.description !== undefined ? { description: input.description } : {}),
      ...(input.topics !== undefined ? { topics: JSON.stringify(input.topics) } : {}),
      updated_at: nowIso(deps),
    });
  } catch (error) {
    // Two renames to the same name at once: the unique index on lower(name) decides.
    if (isUniqueViolation(error)) throw createDuplicateModuleNameError();
    throw error;
  }
  if (!row) throw createModuleNotFoundError();
  deps.cache.invalidate();
  return toModule(row);
}

/** The admin's "+R10" (spec §9): atomic, so two clicks at once raise the price twice. */
export async function raiseModulePrice(deps: CatalogueDeps, id: string): Promise<Module> {
  const row = await repo.raisePrice(deps.db, id, priceLimits.stepCents, priceLimits.maxCents, nowIso(deps));
  if (!row) {
    if (!(await repo.findModuleById(deps.db, id))) throw createModuleNotFoundError();
    throw createPriceLimitError();
  }
  deps.cache.invalidate();
  return toModule(row);
}

/** Removes a module from the catalogue; enrolments in it keep its name. */
export async function deleteModule(deps: CatalogueDeps, id: string): Promise<void> {
  if (!(await repo.deleteModule(deps.db, id))) throw createModuleNotFoundError();
  deps.cache.invalidate();
}
