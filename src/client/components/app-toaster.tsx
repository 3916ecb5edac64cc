import { useCallback, useEffect, useSyncExternalStore } from 'react';
import { Toaster } from 'sonner';
import { toasterReady } from '../lib/toast.ts';

/** Whether a media query matches now, following changes (a rotated phone, a resized window). */
function useMediaQuery(query: string): boolean {
  const subscribe = useCallback(
    (onChange: () => void) => {
      const list = window.matchMedia(query);
      list.addEventListener('change', onChange);
      return () => list.removeEventListener('change', onChange);
    },
    [query],
  );
  return useSyncExternalStore(
    subscribe,
    () => window.matchMedia(query).matches,
    () => false,
  );
}

/**
 * Where the app's toasts appear: at the bottom, never over the sticky navbar; centred on phones, bottom right
 * from Tailwind's `sm` breakpoint (40rem = 640 px). Light or dark with the system; the colours of each type
 * are ours (styles.css), each at least 4.5:1. Loaded lazily (lib/toast.ts). Shown one above the other
 * (`expand`), each whole: collapsed into a stack, an older toast took the height of the one in front, and that
 * change of height moved the page's layout (two toasts at once: "saved data was cleared" and "now works offline").
 */
export function AppToaster() {
  const wide = useMediaQuery('(min-width: 40rem)');
  // After the Toaster's own effect (children's effects run first), which is when it starts listening.
  useEffect(() => toasterReady(), []);
  return (
    <Toaster
      position={wide ? 'bottom-right' : 'bottom-center'}
      theme="system"
      richColors
      closeButton
      expand
      toastOptions={{ duration: 6000 }}
    />
  );
}
