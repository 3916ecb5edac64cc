import type { Module } from '../../../common/catalogue.ts';
import { ifNoneMatch, readRevalidated } from '../../lib/revalidated.ts';
import { client } from '../../lib/api-client.ts';
import { defineLocalTable } from '../../offline/db.ts';
import { defineSource } from '../../offline/engine.ts';

/**
 * The catalogue, kept for reading offline. Public: `GET /api/modules` answers anyone and says nothing about
 * who used the device, so it stays after a log-out.
 */
export const modulesTable = defineLocalTable<Module>({
  name: 'modules',
  schema: 'id, slug, category',
  version: 1,
  scope: 'public',
});

/** The whole catalogue in one answer: a snapshot, so a module deleted on the server goes here too. */
export const catalogueSource = defineSource({
  name: 'catalogue',
  tables: ['modules'],
  needsUser: false,
  listensTo: ['modules'],
  pull: async ({ signal, etag }) => {
    const answer = await readRevalidated(
      await client.api.modules.$get({}, { init: { signal }, headers: ifNoneMatch(etag) }),
    );
    return answer.notModified ? answer : { put: { modules: answer.body.modules }, replace: true, etag: answer.etag };
  },
});
