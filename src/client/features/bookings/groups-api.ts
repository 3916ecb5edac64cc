import type { Booking } from '../../../common/bookings.ts';
import type { GroupSession, OpenGroupInput, TakeSeatInput } from '../../../common/groups.ts';
import { readJson } from '../../lib/api.ts';
import { client } from '../../lib/api-client.ts';

const groups = client.api.groups;

/** Every call of the group sessions (docs/api.md, `/api/groups`), in one place. Online only: seats are counted on the server. */
export const groupsApi = {
  /** The groups still to start: of a module (by name), of a category, or all. */
  list: async (
    query: { module?: string; category?: GroupSession['moduleCategory'] },
    signal?: AbortSignal,
  ): Promise<GroupSession[]> => (await readJson(await groups.$get({ query }, { init: { signal } }))).groups,
  open: async (input: OpenGroupInput): Promise<GroupSession> => readJson(await groups.$post({ json: input })),
  /** The seat's booking, confirmed. */
  takeSeat: async (groupId: string, input: TakeSeatInput): Promise<Booking> =>
    readJson(await groups[':id'].seats.$post({ param: { id: encodeURIComponent(groupId) }, json: input })),
};
