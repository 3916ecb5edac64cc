import type { CreateModuleInput, Module, UpdateModuleInput } from '../../../common/catalogue.ts';
import { readJson } from '../../lib/api.ts';
import { client } from '../../lib/api-client.ts';
import { refreshSources } from '../../offline/engine.ts';
import { modulesTable } from './catalogue.sync.ts';

const module = client.api.modules[':id'];
const param = (id: string) => ({ param: { id: encodeURIComponent(id) } });

/**
 * The admin's catalogue changes, online only. Each writes the server's answer into the local table at once
 * (so /offers shows it without waiting), then tells the engine the modules changed: the catalogue reloads,
 * and so does whatever else listens to it (a rename reaches the admin's own enrolments).
 */
export const catalogueAdminApi = {
  async create(input: CreateModuleInput): Promise<Module> {
    return saved(await readJson(await client.api.modules.$post({ json: input })));
  },
  async update(id: string, input: UpdateModuleInput): Promise<Module> {
    return saved(await readJson(await module.$patch({ ...param(id), json: input })));
  },
  async raisePrice(id: string): Promise<Module> {
    return saved(await readJson(await module['raise-price'].$post(param(id))));
  },
  async remove(id: string): Promise<void> {
    await readJson(await module.$delete(param(id)));
    await modulesTable.delete(id);
    void refreshSources('modules');
  },
};

async function saved(module: Module): Promise<Module> {
  await modulesTable.put(module);
  void refreshSources('modules');
  return module;
}
