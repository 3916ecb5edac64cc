import { useCallback, useEffect, useState } from 'react';
import { useSyncStatus } from '../../offline/hooks.ts';

export interface OnlineRead<T> {
  /** Undefined until the first answer. */
  data: T | undefined;
  failed: boolean;
  online: boolean;
  reload: () => void;
}

/** How long a read may take before it counts as failed (a network that answers nothing). */
const patienceMs = 10_000;

/**
 * A read from the server while online, for what changes on the server as others act (a group's seats, a
 * package's hours, the admin's figures: a copy on the device would promise what is gone), again on `reload` or
 * when `key` changes; `key` empty reads nothing.
 */
export function useOnlineRead<T>(key: string, read: (signal: AbortSignal) => Promise<T>): OnlineRead<T> {
  const { online } = useSyncStatus();
  const [data, setData] = useState<T | undefined>();
  const [failed, setFailed] = useState(false);
  const [round, setRound] = useState(0);
  useEffect(() => {
    if (!key || !online) return;
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, patienceMs);
    read(controller.signal)
      .then((answer) => {
        setData(answer);
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
    // `read` is the caller's function of the moment: `key` says when what it reads changes.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key, online, round]);
  const reload = useCallback(() => setRound((n) => n + 1), []);
  return { data, failed, online, reload };
}
