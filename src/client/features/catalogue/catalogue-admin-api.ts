import type { CreateModuleInput, Module, UpdateModuleInput } from '../../../common/catalogue.ts';
import { api } from '../../lib/api.ts';
import { refreshSources } from '../../offline/engine.ts';
import { modulesTable } from './catalogue.sync.ts';

const path = (id: string) => `/api/modules/${encodeURIComponent(id)}`;

/**
 * The admin's catalogue changes, online only. Each writes the server's answer into the local table at once
 * (so /offers shows it without waiting), then tells the engine the modules changed: the catalogue reloads,
 * and so does whatever else listens to it (a rename reaches the admin's own enrolments).
 */
export const catalogueAdminApi = {
  async create(input: CreateModuleInput): Promise<Module> {
    const module = await api.post<Module>('/api/modules', input);
    await saved(module);
    return module;
  },
  async update(id: string, input: UpdateModuleInput): Promise<Module> {
    return saved(await api.patch<Module>(path(id), input));
  },
  async raisePrice(id: string): Promise<Module> {
    return saved(await api.post<Module>(`${path(id)}/raise-price`));
  },
  async remove(id: string): Promise<void> {
    await api.delete(path(id));
    await modulesTable.delete(id);
    void refreshSources('modules');
  },
};

async function saved(module: Module): Promise<Module> {
  await modulesTable.put(module);
  void refreshSources('modules');
  return module;
}
