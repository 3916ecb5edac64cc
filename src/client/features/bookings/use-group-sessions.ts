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

/**
 * The open group sessions of a module or a category, read from the server while online (seats change as students
 * take them, so a copy on the device would promise seats that are gone). `query` undefined reads nothing.
 */
export function useGroupSessions(query: { module?: string; category?: GroupSession['moduleCategory'] } | undefined) {
  const { online } = useSyncStatus();
  const [groups, setGroups] = useState<GroupSession[] | undefined>();
  const [failed, setFailed] = useState(false);
  const [round, setRound] = useState(0);
  const key = query ? JSON.stringify(query) : '';
  useEffect(() => {
    if (!key || !online) return;
    const controller = new AbortController();
    groupsApi
      .list(JSON.parse(key) as Parameters<typeof groupsApi.list>[0], controller.signal)
      .then((answer) => {
        setGroups(answer);
        setFailed(false);
      })
      .catch(() => {
        if (!controller.signal.aborted) setFailed(true);
      });
    return () => controller.abort();
  }, [key, online, round]);
  const reload = useCallback(() => setRound((n) => n + 1), []);
  return { groups, failed, online, reload } satisfies GroupSessionsState;
}
