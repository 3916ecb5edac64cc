import { useCallback, useEffect, useState } from 'react';
import type { GroupSession } from '../../../common/groups.ts';
import { useSyncStatus } from '../../offline/hooks.ts';
import { groupsApi } from './groups-api.ts';

export interface GroupSessionsState {
  /** Undefined until the first answer. */
  groups: GroupSession[] | undefined;
  failed: boolean;
  online: boolean;
  reload: () => void;
}

/** How long a read of the groups may take before it counts as failed (a network that answers nothing). */
const patienceMs = 10_000;

/**
 * The open group sessions of a module or a category, read from the server while online (seats change as students
 * take them, so a copy on the device would promise seats that are gone). `query` undefined reads nothing.
 * `seen`: what the caller knows of the seats (its seats' bookings, say); when it changes, the groups are read
 * again, so that a seat taken shows in the counts even if the page that took it was replaced meanwhile.
 */
export function useGroupSessions(
  query: { module?: string; category?: GroupSession['moduleCategory'] } | undefined,
  seen = '',
) {
  const { online } = useSyncStatus();
  const [groups, setGroups] = useState<GroupSession[] | undefined>();
  const [failed, setFailed] = useState(false);
  const [round, setRound] = useState(0);
  const key = query ? JSON.stringify(query) : '';
  useEffect(() => {
    if (!key || !online) return;
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, patienceMs);
    groupsApi
      .list(JSON.parse(key) as Parameters<typeof groupsApi.list>[0], controller.signal)
      .then((answer) => {
        setGroups(answer);
        setFailed(false);
      })
      .catch(() => {
        if (timedOut || !controller.signal.aborted) setFailed(true);
      })
      .finally(() => clearTimeout(timer));
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [key, online, round, seen]);
  const reload = useCallback(() => setRound((n) => n + 1), []);
  return { groups, failed, online, reload } satisfies GroupSessionsState;
}
