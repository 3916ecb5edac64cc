import { RotateCw } from 'lucide-react';
import { useCallback, useEffect, useId, useState } from 'react';
import { noticeKindInfo, noticeKinds, type FailedDelivery } from '../../../common/notices.ts';
import { formatSastDateTime } from '../../../common/sast.ts';
import { Notice } from '../../components/notice.tsx';
import { isSessionEnded, NetworkError, readJson } from '../../lib/api.ts';
import { client } from '../../lib/api-client.ts';
import { errorText } from '../../lib/error-text.ts';
import { toast } from '../../lib/toast.ts';

type Loaded = { state: 'loading' | 'offline' | 'failed' } | { state: 'ready'; deliveries: FailedDelivery[] };

const channelNames: Record<FailedDelivery['channel'], string> = {
  email: 'E-mail',
  push: 'Push',
  whatsapp: 'WhatsApp',
};
const kindLabel = (kind: string) =>
  (noticeKinds as readonly string[]).includes(kind) ? noticeKindInfo[kind as keyof typeof noticeKindInfo].label : kind;

/**
 * The admin's view of notices that did not arrive (issue 38 §4): every push and WhatsApp delivery that failed for good
 * or whose device is gone, newest first, with why; a failed one can be sent again (a gone device cannot: it no
 * longer subscribes). Read from the server when the tab opens; needs the connection.
 */
export function FailedDeliveries() {
  const headingId = useId();
  const [loaded, setLoaded] = useState<Loaded>({ state: 'loading' });
  const [busy, setBusy] = useState<string>();

  const load = useCallback(
    () =>
      client.api.admin.deliveries
        .$get()
        .then(readJson)
        .then(
          ({ deliveries }) => setLoaded({ state: 'ready', deliveries }),
          (error: unknown) => setLoaded({ state: error instanceof NetworkError ? 'offline' : 'failed' }),
        ),
    [],
  );
  useEffect(() => {
    void load();
  }, [load]);

  async function resend(id: string) {
    setBusy(id);
    try {
      await readJson(await client.api.admin.deliveries[':id'].resend.$post({ param: { id } }));
      toast.success('Sent again. It leaves this list once it is delivered or fails again.');
      await load();
    } catch (error) {
      if (!isSessionEnded(error)) toast.error(errorText(error, 'Could not send it again.'));
    } finally {
      setBusy(undefined);
    }
  }

  return (
    <section aria-labelledby={headingId}>
      <h2 id={headingId} className="text-xl font-semibold">
        Notices that did not arrive
      </h2>
      <p className="mt-2 max-w-prose text-slate-700 dark:text-slate-300">
        Push notifications and WhatsApp messages that failed after every retry, or whose device no longer takes them.
        E-mail is retried the same way; booking e-mails are also in each booking’s history.
      </p>
      {loaded.state === 'loading' && (
        <p className="mt-4 text-sm text-slate-600 dark:text-slate-400" role="status">
          Loading…
        </p>
      )}
      {loaded.state === 'offline' && (
        <Notice tone="offline" className="mt-4">
          This list needs a connection.
        </Notice>
      )}
      {loaded.state === 'failed' && (
        <Notice tone="error" className="mt-4">
          Could not load the list. Please reload the page to try again.
        </Notice>
      )}
      {loaded.state === 'ready' && loaded.deliveries.length === 0 && (
        <p className="card mt-4 text-slate-700 dark:text-slate-300">Every notice arrived. Nothing to do here.</p>
      )}
      {loaded.state === 'ready' && loaded.deliveries.length > 0 && (
        <ul className="mt-4 space-y-3" aria-label="Failed deliveries">
          {loaded.deliveries.map((d) => (
            <li key={d.id} className="card">
              <p className="text-sm text-slate-600 dark:text-slate-400">
                {channelNames[d.channel]} · <time dateTime={d.createdAt}>{formatSastDateTime(d.createdAt)}</time> ·{' '}
                {d.attempts === 1 ? '1 attempt' : `${d.attempts} attempts`}
              </p>
              <p className="mt-1 font-semibold">{kindLabel(d.kind)}</p>
              <p className="mt-1 text-slate-700 dark:text-slate-300">To {d.to}</p>
              <p className="mt-1 text-sm break-words text-red-800 dark:text-red-300">
                {d.status !== 'gone'
                  ? 'Why: '
                  : d.channel === 'push'
                    ? 'The device no longer takes notifications: '
                    : 'WhatsApp cannot reach this number: '}
                {d.reason}
              </p>
              {d.status === 'failed' && (
                <button
                  type="button"
                  className="btn-secondary mt-3"
                  disabled={busy !== undefined}
                  onClick={() => void resend(d.id)}
                >
                  <RotateCw aria-hidden size={16} className="mr-2" />
                  Send again
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
