import type { z } from 'zod';
import {
  priceLimits,
  slugify,
  type createModuleInputSchema,
  type Module,
  type updateModuleInputSchema,
} from '../../../common/catalogue.ts';
import { categories } from '../../../common/roles.ts';
import type { Me } from '../../../common/session.ts';
import { requireRole } from '../../auth/auth.session.ts';
import type { Db } from '../../db/create-db.ts';
import { isUniqueViolation } from '../../db/constraint-errors.ts';
import { withTransaction, type Deps } from '../../deps.ts';
import type { ChangeNotice, EventBus } from '../../events/events.ts';
import { createCatalogueCache, type CatalogueCache, type CatalogueSnapshot } from './catalogue.cache.ts';
import {
  createDuplicateModuleNameError,
  createModuleNotFoundError,
  createNameWithoutSlugError,
  createPriceLimitError,
} from './catalogue.errors.ts';
import * as repo from './catalogue.repository.ts';

export interface CatalogueDeps extends Deps {
  cache: CatalogueCache;
}

/** What clients (and every process's copy) call the catalogue's data in change notices. */
const table = 'modules';

/**
 * The catalogue's dependencies, with a copy in memory that loads from `deps.db`: one per server process. It
 * listens to the bus, so a write made by any process sharing the database invalidates it (catalogue.cache.ts).
 */
export function createCatalogueDeps(deps: Deps, bus: Pick<EventBus, 'subscribe'>): CatalogueDeps {
  const cache = createCatalogueCache(() => loadModules(deps.db));
  bus.subscribe((message) => {
    if (message.type === 'resync' || message.event.table === table) cache.invalidate();
  });
  return { ...deps, cache };
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

const changed = (id: string): ChangeNotice => ({ table, ids: [id], audience: 'everyone' });

/**
 * Called once a write is committed, beside its notice on the bus: the bus may bring the notice back to this
 * process later (PostgreSQL), and the admin's next read must already see the change.
 */
const forgetCopy = (deps: CatalogueDeps) => deps.cache.invalidate();

/** Only the admin changes the catalogue. Routes call it before reading the body, so a student's write is a 403 whatever it carries. */
export function requireCatalogueAdmin(me: Me | undefined): Me {
  return requireRole(me, 'admin');
}

/** The whole catalogue, by category then name (from memory; see catalogue.cache.ts). */
export function listCatalogue(deps: CatalogueDeps): Promise<CatalogueSnapshot> {
  return deps.cache.get();
}

/** The whole catalogue if it is in memory, or undefined (then `listCatalogue` loads it). */
export function peekCatalogue(deps: CatalogueDeps): CatalogueSnapshot | undefined {
  return deps.cache.peek();
}

export async function findModuleBySlug(deps: CatalogueDeps, slug: string): Promise<Module | undefined> {
  return (await deps.cache.get()).bySlug.get(slug);
}

export async function requireModuleBySlug(deps: CatalogueDeps, slug: string): Promise<Module> {
  const module = await findModuleBySlug(deps, slug);
  if (!module) throw createModuleNotFoundError();
  return module;
}

/** Adds a module. Its page address is made from its name. */
export async function createModule(
  deps: CatalogueDeps,
  me: Me | undefined,
  input: z.output<typeof createModuleInputSchema>,
): Promise<Module> {
  requireCatalogueAdmin(me);
  const slug = slugify(input.name);
  if (!slug) throw createNameWithoutSlugError();
  const now = deps.clock.now().toISOString();
  const module = await withTransaction(deps, async (tx) => {
    if (await repo.findModuleByNameOrSlug(tx.db, input.name, slug)) throw createDuplicateModuleNameError();
    const row = await refuseDuplicateName(() =>
      repo.insertModule(tx.db, {
        id: crypto.randomUUID(),
        slug,
        name: input.name,
        category: input.category,
        price_cents: input.priceCents,
        description: input.description,
        topics: JSON.stringify(input.topics),
        created_at: now,
        updated_at: now,
      }),
    );
    tx.events.publish(changed(row.id));
    return toModule(row);
  });
  forgetCopy(deps);
  return module;
}

/** Two admins adding (or renaming to) the same name at once: the unique indexes decide, and the loser hears why. */
async function refuseDuplicateName<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (isUniqueViolation(error)) throw createDuplicateModuleNameError();
    throw error;
  }
}

/**
 * Changes any of name, category, price, description and topics; fields left out stay. A rename keeps the
 * slug: /modules/<slug> links already shared, bookmarked or stored offline keep working. The new name must
 * still not equal another module's (any case) nor make another module's page address.
 */
export async function updateModule(
  deps: CatalogueDeps,
  me: Me | undefined,
  id: string,
  input: z.output<typeof updateModuleInputSchema>,
): Promise<Module> {
  requireCatalogueAdmin(me);
  const module = await withTransaction(deps, async (tx) => {
    if (input.name !== undefined) {
      if (!(await repo.findModuleById(tx.db, id))) throw createModuleNotFoundError();
      const slug = slugify(input.name);
      if (!slug) throw createNameWithoutSlugError();
      if (await repo.findModuleByNameOrSlug(tx.db, input.name, slug, id)) throw createDuplicateModuleNameError();
    }
    const row = await refuseDuplicateName(() =>
      repo.updateModule(tx.db, id, {
        ...(input.name !== undefined ? { name: input.name } : {}),
        ...(input.category !== undefined ? { category: input.category } : {}),
        ...(input.priceCents !== undefined ? { price_cents: input.priceCents } : {}),
        ...(input.description !== undefined ? { description: input.description } : {}),
        ...(input.topics !== undefined ? { topics: JSON.stringify(input.topics) } : {}),
        updated_at: deps.clock.now().toISOString(),
      }),
    );
    if (!row) throw createModuleNotFoundError();
    tx.events.publish(changed(row.id));
    return toModule(row);
  });
  forgetCopy(deps);
  return module;
}

/** The admin's "+R10" (spec §9): atomic, so two clicks at once raise the price twice. */
export async function raiseModulePrice(deps: CatalogueDeps, me: Me | undefined, id: string): Promise<Module> {
  requireCatalogueAdmin(me);
  const row = await repo.raisePrice(
    deps.db,
    id,
    priceLimits.stepCents,
    priceLimits.maxCents,
    deps.clock.now().toISOString(),
  );
  if (!row) {
    if (!(await repo.findModuleById(deps.db, id))) throw createModuleNotFoundError();
    throw createPriceLimitError();
  }
  deps.events.publish(changed(id));
  forgetCopy(deps);
  return toModule(row);
}

/** Removes a module from the catalogue; enrolments in it keep its name. */
export async function deleteModule(deps: CatalogueDeps, me: Me | undefined, id: string): Promise<void> {
  requireCatalogueAdmin(me);
  if (!(await repo.deleteModule(deps.db, id))) throw createModuleNotFoundError();
  deps.events.publish(changed(id));
  forgetCopy(deps);
}
