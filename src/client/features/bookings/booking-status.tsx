import { bookingMessages } from '../../../common/bookings.ts';
import type { ChangeState } from '../../offline/engine.ts';

type Status = { text: string; tone: 'info' | 'error' | 'success' } | undefined;

/** Spec §8 Booking: the status line, from where the draft's request is. */
export function statusOf(request: ChangeState | undefined, online: boolean, submitting: boolean): Status {
  if (submitting) return { text: bookingMessages.sending, tone: 'info' };
  switch (request?.state) {
    case 'sending':
      return { text: bookingMessages.sending, tone: 'info' };
    case 'waiting':
      // Offline it goes when the connection returns; online, a try that failed (no answer, a busy server, too
      // many requests) is tried again by itself.
      if (!online) return { text: bookingMessages.queued, tone: 'info' };
      return { text: request.attempts === 0 ? bookingMessages.sending : bookingMessages.retrying, tone: 'info' };
    case 'attention':
      return { text: `${bookingMessages.failed} ${request.error.message}`.trim(), tone: 'error' };
    case 'done':
      return { text: bookingMessages.sent, tone: 'success' };
    default:
      return undefined;
  }
}

const toneClass = {
  error: 'font-medium text-red-700 dark:text-red-400',
  success: 'font-medium text-green-800 dark:text-green-300',
  info: 'font-medium',
};

/** The form's one live line: a failure on this device (`localError`), else where the request is. */
export function BookingStatusLine({ status, localError }: { status: Status; localError: string | undefined }) {
  return (
    <p role="status" aria-live="polite" className={status || localError ? '' : 'sr-only'}>
      {localError ? (
        <span className="font-medium text-red-700 dark:text-red-400">{localError}</span>
      ) : (
        status && <span className={toneClass[status.tone]}>{status.text}</span>
      )}
    </p>
  );
}
