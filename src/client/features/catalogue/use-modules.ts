import type { Module } from '../../../common/catalogue.ts';
import { useLocalData, type LocalData } from '../../offline/hooks.ts';
import { catalogueSource, modulesTable } from './catalogue.sync.ts';
import { byName } from '../../../common/locale.ts';

/** The catalogue from IndexedDB, sorted by name, refreshed from the server when the page opens. */
export function useModules(): LocalData<Module[]> {
  return useLocalData(async () => (await modulesTable.toArray()).sort(byName), [], [catalogueSource]);
}
