import { RefreshCw } from 'lucide-react';
import { useState } from 'react';
import { useDataSaver } from '../lib/data-saver.ts';
import { toast } from '../lib/toast.ts';
import { refreshOnScreen } from '../offline/hooks.ts';

/** What a refresh that could not reach the server says: the page shows what it held. */
export const refreshOfflineText = 'You are offline: the lists show what this device last loaded.';

/**
 * The navbar's "Refresh" while the device saves data (lib/data-saver.ts), and nothing otherwise: nothing
 * refreshes by itself then, so the lists on the page are read again when the user asks, and only those. On a
 * phone the icon alone, named for screen readers. Loaded with the engine, so the setting costs a visitor's
 * first load nothing.
 */
export function RefreshButton({ className = '' }: { className?: string }) {
  const [busy, setBusy] = useState(false);
  const savingData = useDataSaver().on;
  if (!savingData) return null;

  async function refresh() {
    setBusy(true);
    try {
      const results = await refreshOnScreen();
      if (results.includes('offline')) toast.info(refreshOfflineText);
      else if (results.includes('failed')) toast.error('The lists could not be refreshed. Try again in a moment.');
    } finally {
      setBusy(false);
    }
  }

  return (
    <button
      type="button"
      className={`btn-secondary min-h-[44px] min-w-[44px] gap-1.5 px-2.5 py-0 text-sm ${className}`}
      title="Read this page's lists again (Save data is on)"
      aria-busy={busy}
      disabled={busy}
      onClick={() => void refresh()}
    >
      <RefreshCw aria-hidden size={18} className={busy ? 'animate-spin motion-reduce:animate-none' : ''} />
      <span className="sr-only sm:not-sr-only">Refresh</span>
    </button>
  );
}
