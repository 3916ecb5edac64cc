import { use, useEffect } from 'react';
import { useRegisterSW } from 'virtual:pwa-register/react';
import { brand } from '../../common/brand.ts';
import { toast } from '../lib/toast.ts';
import { noteConnection, offlineReady } from './asset-cache.ts';

// The worker reads the note when it installs: written before the worker is registered. (Not a top-level
// await: Rolldown would then move shared modules out of the entry, and the public pages over their budget.)
const connectionNoted = noteConnection();

export const pwaTexts = {
  offlineReady: `${brand.name} now works offline on this device.`,
};

/** Where the device remembers that it was told: once per device, not on later visits. */
const offlineReadyToldKey = 'offlineReadyTold';

/**
 * Says once per device, as a toast, that the app now works offline: when the worker first holds all it keeps
 * for the app (asset-cache.ts). Storage the browser refuses (its settings) throws: then nothing is said, rather
 * than the same news on every visit.
 */
export function OfflineReadyNotice() {
  useEffect(() => {
    let mounted = true;
    void offlineReady.then(() => {
      if (!mounted) return;
      try {
        if (localStorage.getItem(offlineReadyToldKey) !== null) return;
        localStorage.setItem(offlineReadyToldKey, new Date().toISOString());
      } catch {
        return;
      }
      toast.success(pwaTexts.offlineReady);
    });
    return () => {
      mounted = false;
    };
  }, []);
  return null;
}

/**
 * Registers the service worker with Workbox's page side once the connection is noted for it (main.tsx has
 * registered it already, asset-cache.ts: the same worker), and says "A new version is available — Reload"
 * when a new one is waiting.
 */
export function UpdatePrompt() {
  use(connectionNoted);
  const {
    needRefresh: [needRefresh, setNeedRefresh],
    updateServiceWorker,
  } = useRegisterSW({
    onRegisterError: (error: unknown) => console.error('Service worker registration failed', error),
  });
  if (!needRefresh) return null;
  return (
    // Apart from the toasts: on a phone at the bottom, under the thumb (the toasts come under the navbar);
    // from `sm` on at the top under the navbar (the toasts come at the bottom right).
    <div
      role="status"
      className="fixed inset-x-4 bottom-4 z-40 mx-auto sm:top-20 sm:bottom-auto flex max-w-md items-center justify-between gap-3 rounded-xl bg-slate-900 p-4 text-white shadow-lg dark:bg-slate-800"
    >
      <span>A new version is available.</span>
      <div className="flex gap-2">
        <button
          type="button"
          className="btn min-h-10 px-3 text-slate-200 hover:text-white"
          onClick={() => setNeedRefresh(false)}
        >
          Later
        </button>
        <button
          type="button"
          className="btn min-h-10 bg-white px-3 text-slate-900 hover:bg-slate-100"
          onClick={() => {
            // Workbox reloads by itself only if this page was under a worker when it opened; on a first
            // visit that met a release it would not, so reload when the new worker takes over.
            navigator.serviceWorker.addEventListener('controllerchange', () => window.location.reload(), {
              once: true,
            });
            void updateServiceWorker(true);
          }}
        >
          Reload
        </button>
      </div>
    </div>
  );
}
