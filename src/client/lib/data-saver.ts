import { useSyncExternalStore } from 'react';

/**
 * "Save data" (the profile's setting): no live updates, and lists refresh when the user asks. It belongs to the
 * device, not the account, as the data plan does: kept in localStorage, left alone by a log-out, the same in
 * every tab. Until the user chooses, it follows the browser's own data saver (`navigator.connection.saveData`:
 * Chrome's, or Android's Data Saver): whoever turned that on has asked every site to spend less.
 */
export const dataSaverKey = 'tutorbook:save-data';

export interface DataSaverState {
  on: boolean;
  /** The user chose it on this device; otherwise it follows the browser. */
  chosen: boolean;
}

type Choice = 'on' | 'off';
const listeners = new Set<() => void>();
/** The choice where localStorage refuses it (a private window): it lasts as long as the page. */
let unstored: Choice | null = null;

function readChoice(): Choice | null {
  try {
    const value = localStorage.getItem(dataSaverKey);
    if (value === 'on' || value === 'off') return value;
  } catch {
    // Unreadable: the page's own copy, if any.
  }
  return unstored;
}

const browserSavesData = () =>
  (navigator as Navigator & { connection?: { saveData?: boolean } }).connection?.saveData === true;

/** The setting now; off while rendering at build time. */
export function dataSaver(): DataSaverState {
  if (typeof window === 'undefined') return { on: false, chosen: false };
  const choice = readChoice();
  return { on: choice === null ? browserSavesData() : choice === 'on', chosen: choice !== null };
}

/** The user's choice, for this device; every tab hears of it. */
export function setDataSaver(on: boolean): void {
  const choice: Choice = on ? 'on' : 'off';
  try {
    localStorage.setItem(dataSaverKey, choice);
  } catch {
    unstored = choice;
  }
  for (const listener of [...listeners]) listener();
}

/** `listener` runs when the setting changes, in this tab or another. */
export function watchDataSaver(listener: () => void): () => void {
  const onStorage = (event: StorageEvent) => {
    if (event.key === dataSaverKey || event.key === null) listener();
  };
  listeners.add(listener);
  window.addEventListener('storage', onStorage);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', onStorage);
  };
}

const snapshot = () => {
  const { on, chosen } = dataSaver();
  return `${on}:${chosen}`;
};

/** The setting, following its changes. A page rendered at build time is hydrated with it off. */
export function useDataSaver(): DataSaverState {
  const [on, chosen] = useSyncExternalStore(watchDataSaver, snapshot, () => 'false:false').split(':');
  return { on: on === 'true', chosen: chosen === 'true' };
}
