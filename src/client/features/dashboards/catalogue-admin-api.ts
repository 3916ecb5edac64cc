import type { CreateModuleInput, Module, UpdateModuleInput } from '../../../common/catalogue.ts';
import { api } from '../../lib/api.ts';
import { refreshCatalogue, refreshEnrolments } from '../../offline/catalogue-sync.ts';
import { localDb } from '../../offline/db.ts';

const path = (id: string) => `/api/modules/${encodeURIComponent(id)}`;

/**
 * The admin's catalogue changes. Each writes the server's answer into the local table at once (so /offers
 * shows it without waiting) and then refreshes the whole table from the server.
 */
export const catalogueAdminApi = {
  async create(input: CreateModuleInput): Promise<Module> {
    const module = await api.post<Module>('/api/modules', input);
    await saved(module);
    return module;
  },
  async update(id: string, input: UpdateModuleInput): Promise<Module> {
    const module = await saved(await api.patch<Module>(path(id), input));
    // The server copies a new name to the module's enrolments: the admin's own profile shows it too.
    if (input.name !== undefined) void refreshEnrolments();
    return module;
  },
  async raisePrice(id: string): Promise<Module> {
    return saved(await api.post<Module>(`${path(id)}/raise-price`));
  },
  async remove(id: string): Promise<void> {
    await api.delete(path(id));
    await localDb.modules.delete(id);
    void refreshCatalogue();
  },
};

async function saved(module: Module): Promise<Module> {
  await localDb.modules.put(module);
  void refreshCatalogue();
  return module;
}
