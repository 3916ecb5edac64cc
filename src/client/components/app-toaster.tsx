import { useCallback, useEffect, useState, useSyncExternalStore } from 'react';
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
 * The sticky navbar's height (0 on a bare page), followed as it changes (large text, the offline badge). Measured
 * here, in the toaster's own chunk, rather than by the navbar: the first load of a public page does without it.
 */
function useNavbarHeight(): number {
  const [height, setHeight] = useState(0);
  useEffect(() => {
    const header = document.querySelector('nav[aria-label="Main"]')?.closest('header');
    if (!header) return;
    const observer = new ResizeObserver(() => setHeight(header.offsetHeight));
    observer.observe(header);
    return () => observer.disconnect();
  }, []);
  return height;
}

/**
 * Where the app's toasts appear, never over the sticky navbar. On phones at the top, just under the navbar:
 * at the bottom, a toast lay over what the user reaches for next (a booking's "Cancel booking" on the
 * dashboard after booking, a form's buttons), where the thumb is; the top under the navbar holds the page's
 * heading, and is where a phone's own notices appear. From Tailwind's `sm` breakpoint (40rem = 640 px) bottom
 * right, beside the page's column. Light or dark with the system; the colours of each type are ours
 * (styles.css), each at least 4.5:1, and opaque. Loaded lazily (lib/toast.ts). Shown one under the other
 * (`expand`), each whole: collapsed into a stack, an older toast took the height of the one in front, and that
 * change of height moved the page's layout (two toasts at once: "saved data was cleared" and "now works offline").
 */
export function AppToaster() {
  const wide = useMediaQuery('(min-width: 40rem)');
  // Just under the sticky navbar, or under what lies there (`--toasts-top`: the login notice).
  const underNavbar = `calc(var(--toasts-top, ${useNavbarHeight()}px) + 0.5rem)`;
  // After the Toaster's own effect (children's effects run first), which is when it starts listening.
  useEffect(() => toasterReady(), []);
  return (
    <Toaster
      position={wide ? 'bottom-right' : 'top-center'}
      // Sonner's phone layout starts below 600 px, ours at 640 px: the same offset for both.
      offset={{ top: underNavbar }}
      mobileOffset={{ top: underNavbar }}
      theme="system"
      richColors
      closeButton
      expand
      toastOptions={{ duration: 6000 }}
    />
  );
}
