import type { Module } from '../../../common/catalogue.ts';

/** A module as stored: the catalogue's record plus when it was made. */
export interface NewModule extends Module {
  createdAt: string;
}

/** Fields an update may change; those left out stay. `updatedAt` is always set. */
export type ModuleChanges = Partial<Pick<Module, 'name' | 'category' | 'priceCents' | 'description' | 'topics'>> & {
  updatedAt: string;
};

/**
 * The catalogue's storage, in the catalogue's words (docs/decisions/0026). Each engine implements it:
 * catalogue.repository.ts on SQL. Names are compared ignoring case; a name that another module holds is
 * refused with `createDuplicateModuleNameError` by whichever write loses the race.
 */
export interface CatalogueRepository {
  /** Every module, in no particular order. */
  list(): Promise<Module[]>;
  findById(id: string): Promise<Module | undefined>;
  /** The id of a module other than `exceptId` whose name equals `name` ignoring case, or whose slug is `slug`. */
  findClash(name: string, slug: string, exceptId?: string): Promise<string | undefined>;
  /** Stores a new module; throws the duplicate-name error when another module took the name or slug meanwhile. */
  insert(module: NewModule): Promise<Module>;
  /** Applies `changes`; undefined when there is no such module. Same duplicate rule as `insert`. */
  update(id: string, changes: ModuleChanges): Promise<Module | undefined>;
  /**
   * Adds `stepCents` atomically, so two raises at once both count; undefined when there is no such module or
   * the new price would pass `maxCents`.
   */
  raisePrice(id: string, stepCents: number, maxCents: number, now: string): Promise<Module | undefined>;
  /** The module whose name equals `name` ignoring case (a booking names its module this way). */
  findByName(name: string): Promise<Module | undefined>;
  /** Deletes the module: enrolments in it keep its name. False when there was none. */
  delete(id: string): Promise<boolean>;
  /** The current name and slug of each of these modules that still exists, by id (an enrolment shows them). */
  findNames(ids: readonly string[]): Promise<Map<string, Pick<Module, 'name' | 'slug'>>>;
}
