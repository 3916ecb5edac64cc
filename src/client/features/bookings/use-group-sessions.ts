import type { GroupSession } from '../../../common/groups.ts';
import { groupsApi } from './groups-api.ts';
import { useOnlineRead } from './use-online-read.ts';

export interface GroupSessionsState {
  /** Undefined until the first answer. */
  groups: GroupSession[] | undefined;
  failed: boolean;
  online: boolean;
  reload: () => void;
}

/**
 * The open group sessions of a module or a category, read from the server while online (seats change as students
 * take them, so a copy on the device would promise seats that are gone). `query` undefined reads nothing.
 * `seen`: what the caller knows of the seats (its seats' bookings, say); when it changes, the groups are read
 * again, so that a seat taken shows in the counts even if the page that took it was replaced meanwhile.
 */
export function useGroupSessions(
  query: { module?: string; category?: GroupSession['moduleCategory'] } | undefined,
  seen = '',
): GroupSessionsState {
  const key = query ? JSON.stringify(query) : '';
  const read = useOnlineRead(key && `${key}\n${seen}`, (signal) =>
    groupsApi.list(JSON.parse(key) as Parameters<typeof groupsApi.list>[0], signal),
  );
  return { groups: read.data, failed: read.failed, online: read.online, reload: read.reload };
}
