import * as AlertDialog from '@radix-ui/react-alert-dialog';
import { Check, CircleAlert, RefreshCw, Upload } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router-dom';
import { useConfirm } from '../components/confirm-dialog.tsx';
import { toast } from '../lib/toast.ts';
import { discardItem, retryItem, tryNow, type OutboxItem } from '../offline/engine.ts';
import { useOutboxItems, useSyncStatus, type SyncStatus } from '../offline/hooks.ts';
import { lookOf, plural, stallText, tones } from './sync-look.ts';

/**
 * The navbar's word on the user's queued changes: offline, sending, all saved, refused ones needing attention,
 * or waiting for a log-in. With items queued it opens the list of them, where refused ones can be sent again or
 * discarded. Icon, words and colour say the same thing; screen readers hear the full sentence, politely.
 */
export function SyncIndicator() {
  const status = useSyncStatus();
  const items = useOutboxItems();
  const [everHadItems, setEverHadItems] = useState(false);
  if (items.length > 0 && !everHadItems) setEverHadItems(true);
  const [open, setOpen] = useState(false);
  const look = lookOf(status, everHadItems);

  const face = look && (
    <>
      <look.icon
        aria-hidden
        size={18}
        className={`shrink-0 ${look.spin ? 'animate-spin motion-reduce:animate-none' : ''}`}
      />
      <span aria-hidden className="sm:hidden">
        {look.short}
      </span>
      <span aria-hidden className="hidden sm:inline">
        {look.wide}
      </span>
      <span className="sr-only">{look.full}</span>
    </>
  );
  // Pixels, not rems: with large text only the words grow (navbar.tsx).
  const boxClass = `flex min-h-[44px] items-center gap-1.5 rounded-lg border px-2.5 text-sm font-medium ${look?.className ?? ''}`;

  return (
    <div role="status" className="ml-auto">
      {look &&
        // Kept while open: the list may empty under the user's eyes (everything sent), and says so.
        (items.length > 0 || open ? (
          <AlertDialog.Root open={open} onOpenChange={setOpen}>
            <AlertDialog.Trigger className={`${boxClass} hover:brightness-95`}>
              {face}
              <span className="sr-only"> Show unsent items.</span>
            </AlertDialog.Trigger>
            <UnsentItemsDialog items={items} status={status} />
          </AlertDialog.Root>
        ) : (
          <span className={boxClass}>{face}</span>
        ))}
    </div>
  );
}

function UnsentItemsDialog({ items, status }: { items: OutboxItem[]; status: SyncStatus }) {
  const attention = items.filter((item) => item.state === 'attention').length;
  const { paused, stall, connection } = status;
  return (
    <AlertDialog.Portal>
      <AlertDialog.Overlay className="fixed inset-0 z-50 bg-slate-950/50 dark:bg-black/70" />
      <AlertDialog.Content className="fixed top-1/2 left-1/2 z-50 max-h-[calc(100dvh-2rem)] w-[calc(100%-2rem)] max-w-lg -translate-x-1/2 -translate-y-1/2 overflow-y-auto rounded-2xl border border-slate-200 bg-white p-6 shadow-xl dark:border-slate-600 dark:bg-slate-900 dark:shadow-black/60">
        <AlertDialog.Title className="text-lg font-semibold">Changes not sent yet</AlertDialog.Title>
        <AlertDialog.Description className="mt-2 text-slate-700 dark:text-slate-300">
          {attention > 0
            ? 'Some of your changes could not be sent. Send them again, or discard them.'
            : paused
              ? 'Your session ended. Log in again and these are sent.'
              : 'These are kept on this device and sent as soon as the server can be reached.'}
        </AlertDialog.Description>
        {(stall || connection === 'unreachable') && items.length > 0 && <StuckNotice stall={stall} now={status.now} />}
        {items.length === 0 ? (
          <p className="mt-4 flex items-center gap-2 text-slate-700 dark:text-slate-300">
            <Check aria-hidden size={18} /> All changes saved.
          </p>
        ) : (
          <ul className="mt-4 flex flex-col gap-3">
            {items.map((item) => (
              <UnsentItem key={item.seq} item={item} />
            ))}
          </ul>
        )}
        <div className="mt-6 flex justify-end">
          <AlertDialog.Cancel className="btn-secondary">Close</AlertDialog.Cancel>
        </div>
      </AlertDialog.Content>
    </AlertDialog.Portal>
  );
}

function UnsentItem({ item }: { item: OutboxItem }) {
  const confirm = useConfirm();
  const [busy, setBusy] = useState(false);
  const label = item.description?.label ?? 'A change made on this device';
  const href = item.description?.href;
  const refused = item.state === 'attention';

  async function run(action: () => Promise<unknown>) {
    setBusy(true);
    try {
      await action();
    } catch (error) {
      toast.error(error instanceof Error ? error.message : 'That did not work. Reload the page and try again.');
    } finally {
      setBusy(false);
    }
  }

  async function discard() {
    const waiting = item.dependants;
    const ok = await confirm({
      title: 'Discard this change?',
      message: `"${label}" will not be sent, and it is removed from this device.${waiting > 0 ? ` ${plural(waiting, 'later item waits', 'later items wait')} for it and will be discarded too.` : ''}`,
      confirmLabel: 'Discard',
      destructive: true,
    });
    if (ok) await run(() => discardItem(item.seq));
  }

  return (
    <li className={`rounded-lg border p-3 ${refused ? tones.danger : 'border-slate-200 dark:border-slate-700'}`}>
      <p className="font-medium">
        {href ? (
          <AlertDialog.Cancel asChild>
            <Link to={href} className="link">
              {label}
            </Link>
          </AlertDialog.Cancel>
        ) : (
          label
        )}
      </p>
      <p className="mt-1 flex items-center gap-1.5 text-sm">
        {refused ? <CircleAlert aria-hidden size={16} /> : <Upload aria-hidden size={16} />}
        {refused ? 'Needs your attention' : item.waitsForEarlier ? 'Waiting for an earlier change' : 'Waiting to send'}
      </p>
      {refused && item.error && <p className="mt-1 text-sm">{item.error.message}</p>}
      {refused && (
        <div className="mt-3 flex flex-wrap gap-2">
          {/* Another version's item goes only from a tab of that version (its message says to reload). */}
          {item.error?.code !== 'outbox.unknown_mutation' && (
            <button
              type="button"
              className="btn-primary"
              disabled={busy}
              onClick={() => void run(() => retryItem(item.seq))}
            >
              Send again
            </button>
          )}
          <button type="button" className="btn-secondary" disabled={busy} onClick={() => void discard()}>
            Discard
          </button>
        </div>
      )}
    </li>
  );
}

/** Items keep failing, or the server does not answer: how long, and a way to try at once rather than wait. */
function StuckNotice({ stall, now }: { stall: SyncStatus['stall']; now: number }) {
  const [busy, setBusy] = useState(false);
  return (
    <div className={`mt-4 flex flex-wrap items-center justify-between gap-3 rounded-lg border p-3 ${tones.warning}`}>
      <p>{stall ? stallText(stall, now) : 'The server is not answering; trying again.'}</p>
      <button
        type="button"
        className="btn-secondary"
        disabled={busy}
        onClick={() => {
          setBusy(true);
          void tryNow().finally(() => setBusy(false));
        }}
      >
        <RefreshCw aria-hidden size={16} className={busy ? 'animate-spin motion-reduce:animate-none' : ''} />
        Try now
      </button>
    </div>
  );
}
