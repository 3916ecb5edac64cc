import type { Module } from '../../../common/catalogue.ts';
import { useLocalData, type LocalData } from '../../offline/hooks.ts';
import { catalogueSource, modulesTable } from './catalogue.sync.ts';

const byName = (a: { name: string }, b: { name: string }) =>
  a.name.localeCompare(b.name, 'en-ZA', { sensitivity: 'base' });

/** The catalogue from IndexedDB, sorted by name, refreshed from the server when the page opens. */
export function useModules(): LocalData<Module[]> {
  return useLocalData(async () => (await modulesTable.toArray()).sort(byName), [], [catalogueSource]);
}
