import {
  Check,
  CircleAlert,
  CloudOff,
  DatabaseX,
  Hourglass,
  LoaderCircle,
  LogIn,
  Upload,
  WifiOff,
  type LucideIcon,
} from 'lucide-react';
import type { SyncStatus } from '../offline/hooks.ts';

/**
 * What the navbar's indicator shows (sync-indicator.tsx), from the engine's status: one state, the most urgent.
 */
export const plural = (count: number, one: string, many: string) => `${count} ${count === 1 ? one : many}`;

/** "3 minutes", "1 minute": how long items have waited, in whole minutes (at least one). */
export const minutesSince = (since: number, now: number) =>
  plural(Math.max(1, Math.floor((now - since) / 60_000)), 'minute', 'minutes');

export interface Look {
  icon: LucideIcon;
  /** What the navbar shows on a phone; `wide` from the sm breakpoint, `full` for screen readers. */
  short: string;
  wide: string;
  full: string;
  className: string;
  spin?: boolean;
}

export const tones = {
  warning: 'border-amber-300 bg-amber-50 text-amber-900 dark:border-amber-800 dark:bg-amber-950 dark:text-amber-100',
  danger: 'border-red-300 bg-red-50 text-red-800 dark:border-red-800 dark:bg-red-950 dark:text-red-200',
  busy: 'border-slate-200 bg-white text-slate-700 dark:border-slate-700 dark:bg-slate-900 dark:text-slate-200',
  quiet: 'border-transparent text-slate-600 dark:text-slate-300',
};

/** The one state worth showing, most urgent first: nothing can be saved, what needs the user, then why nothing goes, then progress. */
export function lookOf(status: SyncStatus, everHadItems: boolean): Look | undefined {
  const { connection, sending, waiting, attention, paused, storageFailing, stall, now } = status;
  const unsent = waiting + attention;
  if (storageFailing) {
    return {
      icon: DatabaseX,
      short: 'Not saving',
      wide: 'Not saving',
      full: "Changes can't be saved on this device: the browser's storage stopped working. Reload the page.",
      className: tones.danger,
    };
  }
  if (attention > 0) {
    const text = `${attention} need${attention === 1 ? 's' : ''} attention`;
    return {
      icon: CircleAlert,
      short: waiting > 0 ? `${attention}+${waiting}` : String(attention),
      wide: waiting > 0 ? `${text}, ${waiting} waiting` : text,
      full:
        `${plural(attention, 'item', 'items')} could not be sent and ${attention === 1 ? 'needs' : 'need'} your attention.` +
        (waiting > 0 ? ` ${plural(waiting, 'other item waits', 'other items wait')} to be sent.` : ''),
      className: tones.danger,
    };
  }
  if (paused && unsent > 0)
    return {
      icon: LogIn,
      short: 'Log in',
      wide: 'Log in to send',
      full: `Log in again to send ${plural(unsent, 'waiting item', 'waiting items')}.`,
      className: tones.warning,
    };
  if (connection === 'offline') {
    const full =
      unsent > 0
        ? `Offline: ${plural(unsent, 'item waits', 'items wait')} to be sent.`
        : 'Offline: changes cannot reach the server now.';
    return {
      icon: WifiOff,
      short: 'Offline',
      wide: unsent > 0 ? `Offline, ${unsent} waiting` : 'Offline',
      full,
      className: tones.warning,
    };
  }
  if (connection === 'unreachable')
    return {
      icon: CloudOff,
      short: unsent > 0 ? `No answer, ${unsent}` : 'No answer',
      wide: unsent > 0 ? `No answer, ${unsent} waiting` : 'Server not answering',
      full:
        unsent > 0
          ? `The server is not answering: ${plural(unsent, 'item waits', 'items wait')} to be sent. Trying again.`
          : 'The server is not answering. Trying again.',
      className: tones.warning,
    };
  if (stall)
    return {
      icon: Hourglass,
      short: `${stall.count} stuck`,
      wide: `${stall.count} waiting ${minutesSince(stall.since, now).replace(/ minutes?$/, ' min')}`,
      full: stallText(stall, now),
      className: tones.warning,
    };
  if (unsent > 0) {
    return sending
      ? {
          icon: LoaderCircle,
          spin: true,
          short: String(unsent),
          wide: `Sending ${unsent}…`,
          full: `Sending ${plural(unsent, 'item', 'items')}…`,
          className: tones.busy,
        }
      : {
          icon: Upload,
          short: String(unsent),
          wide: `${unsent} waiting`,
          full: `${plural(unsent, 'item waits', 'items wait')} to be sent.`,
          className: tones.busy,
        };
  }
  // Nothing was ever queued in this page: nothing to reassure about.
  if (!everHadItems) return undefined;
  return { icon: Check, short: 'Saved', wide: 'All saved', full: 'All changes saved.', className: tones.quiet };
}

/** "2 items waiting for 3 minutes; trying again." */
export const stallText = (stall: NonNullable<SyncStatus['stall']>, now: number) =>
  `${plural(stall.count, 'item', 'items')} waiting for ${minutesSince(stall.since, now)}; trying again.`;
