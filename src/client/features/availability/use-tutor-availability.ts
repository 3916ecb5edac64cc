import { useCallback, useEffect, useState, useSyncExternalStore } from 'react';
import type { TutorAvailability } from '../../../common/availability-api.ts';
import { NetworkError, TimeoutError } from '../../lib/api.ts';
import { errorText } from '../../lib/error-text.ts';
import { availabilityApi } from './availability-api.ts';

export const availabilityTexts = {
  /** As the other staff changes say it (the catalogue's, the testimonials'). */
  offline: 'You are offline. Connect to the internet to change working hours.',
  loadFailed: 'The working hours could not be loaded. Please try again.',
  saveFailed: 'The working hours could not be saved. Please try again.',
} as const;

export type TutorAvailabilityState =
  | { status: 'loading' }
  | { status: 'ready'; data: TutorAvailability }
  | { status: 'offline' }
  | { status: 'failed'; message: string };

/**
 * One tutor's working hours (a component showing another's is given a new key), read from the server as the
 * page opens: they are not kept on the device, since only the tutor and the admin change them, and only online.
 * `put` takes what a save answered with.
 */
export function useTutorAvailability(tutorId: string) {
  const [state, setState] = useState<TutorAvailabilityState>({ status: 'loading' });

  const load = useCallback(
    (signal?: AbortSignal) => {
      availabilityApi.get(tutorId, signal).then(
        (data) => setState({ status: 'ready', data }),
        (error: unknown) => {
          if (signal?.aborted) return;
          if (error instanceof NetworkError && !(error instanceof TimeoutError)) setState({ status: 'offline' });
          else setState({ status: 'failed', message: errorText(error, availabilityTexts.loadFailed) });
        },
      );
    },
    [tutorId],
  );

  useEffect(() => {
    const abort = new AbortController();
    load(abort.signal);
    return () => abort.abort();
  }, [load]);

  const put = useCallback((data: TutorAvailability) => setState({ status: 'ready', data }), []);
  const reload = () => {
    setState({ status: 'loading' });
    load();
  };
  return { state, reload, put };
}

function subscribeOnline(listener: () => void) {
  window.addEventListener('online', listener);
  window.addEventListener('offline', listener);
  return () => {
    window.removeEventListener('online', listener);
    window.removeEventListener('offline', listener);
  };
}

/** Whether the browser says it has a network: a save is refused at once without one. */
export const useOnline = () =>
  useSyncExternalStore(
    subscribeOnline,
    () => navigator.onLine,
    () => true,
  );
