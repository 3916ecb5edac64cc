import type { Enrolment } from '../../../common/profile.ts';
import { ifNoneMatch, readRevalidated } from '../../lib/revalidated.ts';
import { client } from '../../lib/api-client.ts';
import { defineLocalTable } from '../../offline/db.ts';
import { defineSource } from '../../offline/engine.ts';

/** The signed-in user's enrolments, for reading offline; they go at log-out. */
export const enrolmentsTable = defineLocalTable<Enrolment>({
  name: 'enrolments',
  schema: 'id',
  version: 1,
  scope: 'user',
});

/** All of the user's enrolments in one answer. An enrolment carries its module's name, so a change to the catalogue refreshes it too. */
export const enrolmentsSource = defineSource({
  name: 'profile.enrolments',
  tables: ['enrolments'],
  needsUser: true,
  listensTo: ['enrolments', 'modules'],
  pull: async ({ signal, etag }) => {
    const answer = await readRevalidated(
      await client.api.me.enrolments.$get({}, { init: { signal }, headers: ifNoneMatch(etag) }),
    );
    return answer.notModified
      ? answer
      : { put: { enrolments: answer.body.enrolments }, replace: true, etag: answer.etag };
  },
});
