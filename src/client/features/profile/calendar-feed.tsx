import { CalendarPlus, Copy, RefreshCw } from 'lucide-react';
import { useEffect, useId, useState } from 'react';
import {
  calendarFeedMessages,
  googleCalendarAddUrl,
  type CalendarFeedCreated,
  type CalendarFeedState,
} from '../../../common/calendar-feed.ts';
import { formatSastDateTime } from '../../../common/sast.ts';
import { useConfirm } from '../../components/confirm-dialog.tsx';
import { Notice } from '../../components/notice.tsx';
import { isSessionEnded, NetworkError, readJson } from '../../lib/api.ts';
import { client } from '../../lib/api-client.ts';
import { errorText } from '../../lib/error-text.ts';
import { toast } from '../../lib/toast.ts';

const feedApi = {
  read: async (): Promise<CalendarFeedState> => readJson(await client.api.me['calendar-feed'].$get()),
  renew: async (): Promise<CalendarFeedCreated> => readJson(await client.api.me['calendar-feed'].$post()),
};

type Loaded =
  { state: 'loading' } | { state: 'offline' | 'failed' } | { state: 'ready'; feed: CalendarFeedState['feed'] };

const failure = (error: unknown) =>
  errorText(error, calendarFeedMessages.failed, { offline: calendarFeedMessages.offline });

/**
 * Issue 36 §5: a private address for Google Calendar or Apple Calendar to subscribe to. The server keeps only
 * its hash (docs/decisions/0049), so the address is shown once, when it is made or renewed; renewing (asked
 * first) stops the old one at once. Both need the server: offline the section says so.
 */
export function CalendarFeed() {
  const confirm = useConfirm();
  const headingId = useId();
  const [loaded, setLoaded] = useState<Loaded>({ state: 'loading' });
  const [created, setCreated] = useState<CalendarFeedCreated | null>(null);
  const [busy, setBusy] = useState(false);

  // Read on opening, and again whenever the connection comes back (after an offline start, say).
  useEffect(() => {
    let current = true;
    const read = () =>
      feedApi.read().then(
        ({ feed }) => current && setLoaded({ state: 'ready', feed }),
        (error: unknown) => current && setLoaded({ state: error instanceof NetworkError ? 'offline' : 'failed' }),
      );
    void read();
    // A cheap read: it also brings a renewal made on another device.
    const again = () => void read();
    window.addEventListener('online', again);
    return () => {
      current = false;
      window.removeEventListener('online', again);
    };
  }, []);

  const hasFeed = loaded.state === 'ready' && loaded.feed !== null;

  async function makeLink() {
    if (hasFeed) {
      const ok = await confirm({
        title: 'Renew calendar link',
        message:
          'The old link stops working at once: calendars subscribed to it stop updating. You then subscribe again with the new link.',
        confirmLabel: 'Renew link',
        destructive: true,
      });
      if (!ok) return;
    }
    setBusy(true);
    try {
      const next = await feedApi.renew();
      setCreated(next);
      setLoaded({ state: 'ready', feed: { createdAt: next.createdAt } });
      toast.success(hasFeed ? 'New calendar link made. The old one no longer works.' : 'Calendar link made.');
    } catch (error) {
      if (!isSessionEnded(error)) toast.error(failure(error));
    } finally {
      setBusy(false);
    }
  }

  async function copy(url: string) {
    try {
      await navigator.clipboard.writeText(url);
      toast.success('Link copied.');
    } catch {
      toast.error('Could not copy the link: select it and copy it yourself.');
    }
  }

  return (
    <section className="card mt-6" aria-labelledby={headingId}>
      <h2 id={headingId} className="text-xl font-semibold">
        Calendar feed
      </h2>
      <p className="mt-2 max-w-prose text-slate-700 dark:text-slate-300">
        See your sessions in Google Calendar or Apple Calendar: subscribe to your private link, and your calendar keeps
        up as sessions are confirmed, moved or cancelled. Anyone with the link can see your sessions, so keep it to
        yourself.
      </p>

      {loaded.state === 'loading' && (
        <p className="mt-4 text-sm text-slate-600 dark:text-slate-400" role="status">
          Checking your calendar link…
        </p>
      )}
      {loaded.state === 'offline' && (
        <Notice tone="offline" className="mt-4">
          {calendarFeedMessages.offline}
        </Notice>
      )}
      {loaded.state === 'failed' && (
        <Notice tone="error" className="mt-4">
          Could not check your calendar link. Please reload the page to try again.
        </Notice>
      )}

      {created && (
        <div className="mt-4 flex flex-col gap-3">
          <Notice tone="info">
            Copy your link now: for your privacy we keep no copy of it, so it is shown only this once.
          </Notice>
          <label className="flex flex-col gap-1 text-sm font-medium" htmlFor={`${headingId}-url`}>
            Your calendar link
          </label>
          <div className="flex flex-col gap-2 sm:flex-row">
            <input
              id={`${headingId}-url`}
              className="input font-mono text-sm sm:flex-1"
              readOnly
              value={created.url}
              onFocus={(e) => e.currentTarget.select()}
            />
            <button type="button" className="btn-secondary" onClick={() => void copy(created.url)}>
              <Copy aria-hidden size={18} />
              Copy
            </button>
          </div>
          <div className="flex flex-col gap-3 sm:flex-row">
            <a className="btn-secondary" href={googleCalendarAddUrl(created.url)} target="_blank" rel="noreferrer">
              <CalendarPlus aria-hidden size={18} />
              Add to Google Calendar
            </a>
            <a className="btn-secondary" href={created.webcalUrl}>
              <CalendarPlus aria-hidden size={18} />
              Subscribe in Apple Calendar
            </a>
          </div>
        </div>
      )}

      {loaded.state === 'ready' && hasFeed && !created && (
        <p className="mt-4 max-w-prose text-slate-700 dark:text-slate-300">
          You made your calendar link on {formatSastDateTime(loaded.feed!.createdAt)}. We keep no copy of it, so it
          cannot be shown again: if you need it, renew it and subscribe with the new one.
        </p>
      )}

      {loaded.state === 'ready' && (
        <div className="mt-4">
          {hasFeed ? (
            <button type="button" className="btn-secondary" disabled={busy} onClick={() => void makeLink()}>
              <RefreshCw aria-hidden size={18} />
              {busy ? 'Renewing…' : 'Renew link'}
            </button>
          ) : (
            <button type="button" className="btn-primary" disabled={busy} onClick={() => void makeLink()}>
              <CalendarPlus aria-hidden size={18} />
              {busy ? 'Making…' : 'Create calendar link'}
            </button>
          )}
        </div>
      )}
    </section>
  );
}
