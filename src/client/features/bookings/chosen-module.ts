/**
 * Spec §4 Booking form: "The selected module comes from navigation state, or else the last module stored in
 * the browser. The chosen module is stored in the browser."
 */
export interface ChosenModule {
  name: string;
  slug?: string;
}

/** Whose choice it is goes with the user: log-out forgets it (bookings.sync.ts). */
export const chosenModuleKey = 'bookingModule';

/** Book Now (on /offers and /modules/:slug) passes `{ module: { id, slug, name } }` as navigation state. */
export function moduleFromState(state: unknown): ChosenModule | null {
  const module = (state as { module?: { name?: unknown; slug?: unknown } } | null)?.module;
  if (typeof module?.name !== 'string' || !module.name) return null;
  return { name: module.name, slug: typeof module.slug === 'string' ? module.slug : undefined };
}

export function storeChosenModule(module: ChosenModule) {
  try {
    localStorage.setItem(chosenModuleKey, JSON.stringify(module));
  } catch {
    // Storage full or blocked: the page still shows the module this time.
  }
}

export function storedChosenModule(): ChosenModule | null {
  try {
    return moduleFromState({ module: JSON.parse(localStorage.getItem(chosenModuleKey) ?? 'null') });
  } catch {
    return null;
  }
}
