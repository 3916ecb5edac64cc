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
import { withTransaction, type Deps, type Uses } from '../../deps.ts';
import type { ChangeNotice, EventBus } from '../../events/events.ts';
import { createCatalogueCache, type CatalogueCache, type CatalogueSnapshot } from './catalogue.cache.ts';
import {
  createDuplicateModuleNameError,
  createModuleNotFoundError,
  createNameWithoutSlugError,
  createPriceLimitError,
} from './catalogue.errors.ts';

/** What the routes hold: the server's `deps` and the catalogue's copy in memory (`createCatalogueDeps`). */
export interface CatalogueDeps extends Deps {
  cache: CatalogueCache;
}

/** What the catalogue's reads use: its copy in memory alone. */
type CacheDeps = Pick<CatalogueDeps, 'cache'>;
/** What the catalogue's writes use: its repository, and its copy, which they make stale. */
type WriteDeps = Uses<'catalogue', 'events' | 'clock'> & CacheDeps;

/** What clients (and every process's copy) call the catalogue's data in change notices. */
const table = 'modules';

/**
 * The catalogue's dependencies, with a copy in memory that loads from its repository: one per server process. It
 * listens to the bus, so a write made by any process sharing the database invalidates it (catalogue.cache.ts).
 */
export function createCatalogueDeps<D extends Uses<'catalogue'>>(
  deps: D,
  bus: Pick<EventBus, 'subscribe'>,
): D & CacheDeps {
  const cache = createCatalogueCache(async () => (await deps.repos.catalogue.list()).sort(byCategoryThenName));
  bus.subscribe((message) => {
    if (message.type === 'resync' || message.event.table === table) cache.invalidate();
  });
  return { ...deps, cache };
}

const collator = new Intl.Collator('en');
/** Sorted here rather than in SQL: SQLite and PostgreSQL collate names differently ("Data Structures" / "Databases"). */
const byCategoryThenName = (a: Module, b: Module) =>
  categories.indexOf(a.category) - categories.indexOf(b.category) || collator.compare(a.name, b.name);

const changed = (id: string): ChangeNotice => ({ table, ids: [id], audience: 'everyone' });

/**
 * Called once a write is committed, beside its notice on the bus: the bus may bring the notice back to this
 * process later (PostgreSQL), and the admin's next read must already see the change.
 */
const forgetCopy = (deps: CacheDeps) => deps.cache.invalidate();

/** Only the admin changes the catalogue. Routes call it before reading the body, so a student's write is a 403 whatever it carries. */
export function requireCatalogueAdmin(me: Me | undefined): Me {
  return requireRole(me, 'admin');
}

/** The whole catalogue, by category then name (from memory; see catalogue.cache.ts). */
export function listCatalogue({ cache }: CacheDeps): Promise<CatalogueSnapshot> {
  return cache.get();
}

/** The whole catalogue if it is in memory, or undefined (then `listCatalogue` loads it). */
export function peekCatalogue({ cache }: CacheDeps): CatalogueSnapshot | undefined {
  return cache.peek();
}

export async function findModuleBySlug({ cache }: CacheDeps, slug: string): Promise<Module | undefined> {
  return (await cache.get()).bySlug.get(slug);
}

export async function requireModuleBySlug({ cache }: CacheDeps, slug: string): Promise<Module> {
  const module = await findModuleBySlug({ cache }, slug);
  if (!module) throw createModuleNotFoundError();
  return module;
}

/** Adds a module. Its page address is made from its name. */
export async function createModule(
  deps: WriteDeps & Pick<Deps, 'storage'>,
  me: Me | undefined,
  input: z.output<typeof createModuleInputSchema>,
): Promise<Module> {
  requireCatalogueAdmin(me);
  const slug = slugify(input.name);
  if (!slug) throw createNameWithoutSlugError();
  const now = deps.clock.now().toISOString();
  const module = await withTransaction(deps, async (tx) => {
    if (await tx.repos.catalogue.findClash(input.name, slug)) throw createDuplicateModuleNameError();
    const created = await tx.repos.catalogue.insert({
      id: crypto.randomUUID(),
      slug,
      name: input.name,
      category: input.category,
      priceCents: input.priceCents,
      description: input.description,
      topics: input.topics,
      createdAt: now,
      updatedAt: now,
    });
    tx.events.publish(changed(created.id));
    return created;
  });
  forgetCopy(deps);
  return module;
}

/**
 * Changes any of name, category, price, description and topics; fields left out stay. A rename keeps the
 * slug: /modules/<slug> links already shared, bookmarked or stored offline keep working. The new name must
 * still not equal another module's (any case) nor make another module's page address.
 */
export async function updateModule(
  deps: WriteDeps & Pick<Deps, 'storage'>,
  me: Me | undefined,
  id: string,
  input: z.output<typeof updateModuleInputSchema>,
): Promise<Module> {
  requireCatalogueAdmin(me);
  const module = await withTransaction(deps, async (tx) => {
    if (input.name !== undefined) {
      if (!(await tx.repos.catalogue.findById(id))) throw createModuleNotFoundError();
      const slug = slugify(input.name);
      if (!slug) throw createNameWithoutSlugError();
      if (await tx.repos.catalogue.findClash(input.name, slug, id)) throw createDuplicateModuleNameError();
    }
    const updated = await tx.repos.catalogue.update(id, { ...input, updatedAt: deps.clock.now().toISOString() });
    if (!updated) throw createModuleNotFoundError();
    tx.events.publish(changed(updated.id));
    return updated;
  });
  forgetCopy(deps);
  return module;
}

/** The admin's "+R10" (spec §9): atomic, so two clicks at once raise the price twice. */
export async function raiseModulePrice(deps: WriteDeps, me: Me | undefined, id: string): Promise<Module> {
  requireCatalogueAdmin(me);
  const { catalogue } = deps.repos;
  const raised = await catalogue.raisePrice(
    id,
    priceLimits.stepCents,
    priceLimits.maxCents,
    deps.clock.now().toISOString(),
  );
  if (!raised) {
    if (!(await catalogue.findById(id))) throw createModuleNotFoundError();
    throw createPriceLimitError();
  }
  deps.events.publish(changed(id));
  forgetCopy(deps);
  return raised;
}

/** Removes a module from the catalogue; enrolments in it keep its name. */
export async function deleteModule(deps: WriteDeps, me: Me | undefined, id: string): Promise<void> {
  requireCatalogueAdmin(me);
  if (!(await deps.repos.catalogue.delete(id))) throw createModuleNotFoundError();
  deps.events.publish(changed(id));
  forgetCopy(deps);
}
