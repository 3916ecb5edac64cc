import { useCallback, useEffect, useRef, useState } from 'react';
import type { LocalTransaction } from '../../offline/db.ts';
import { isOffline } from '../../lib/api.ts';
import { emptyBookingForm, type BookingFormValues } from './booking-rules.ts';
import { bookingDraftsTable, type BookingDraftRow } from './bookings.sync.ts';
import { bookingsApi } from './bookings-api.ts';

/** Long enough not to write on every keystroke, short enough that closing the tab loses at most a word. */
const saveDelayMs = 400;

export interface BookingDraft {
  /** Undefined until IndexedDB has answered (the form waits, so a restored draft does not flash in). */
  values: BookingFormValues | undefined;
  requestId: string | null;
  /** What the student typed: shown at once, saved a moment later. */
  update(values: BookingFormValues): void;
  /** The draft is linked to this request (null: to none): saved at once, and kept until the server accepts it. */
  link(requestId: string | null): Promise<void>;
  /**
   * Submits the draft as request `requestId`: `queue` enqueues the request, running the write it is handed (the
   * draft linked to the request) in the enqueue's transaction (`also`), so that after a crash the request is
   * queued with its draft linked, or neither. Nothing is written if `queue` fails, and the draft stays as typed.
   */
  submit(
    requestId: string,
    queue: (linkDraft: (tx: LocalTransaction) => Promise<void>) => Promise<unknown>,
  ): Promise<void>;
  /** A fresh form (after a request was accepted, or to book another session). */
  clear(): Promise<void>;
}

/**
 * The booking form's draft in IndexedDB: restored when the page opens, saved as the student types (and when
 * the page is hidden or left), so a reload or a closed tab keeps it.
 */
export function useBookingDraft(): BookingDraft {
  const [draft, setDraft] = useState<Pick<BookingDraftRow, 'values' | 'requestId'>>();
  // The latest draft, for the callbacks (state lags a render behind) and the save on leaving.
  const latest = useRef<Pick<BookingDraftRow, 'values' | 'requestId'>>({ values: emptyBookingForm, requestId: null });
  const unsaved = useRef(false);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);

  const show = useCallback((next: Pick<BookingDraftRow, 'values' | 'requestId'>) => {
    latest.current = next;
    setDraft(next);
  }, []);

  const flush = useCallback(() => {
    clearTimeout(timer.current);
    if (!unsaved.current) return;
    unsaved.current = false;
    bookingDraftsTable
      .put({ id: 'current', ...latest.current, updatedAt: new Date().toISOString() })
      .catch((error: unknown) => console.warn('The booking draft could not be saved', error));
  }, []);

  useEffect(() => {
    let live = true;
    bookingDraftsTable
      .get('current')
      .catch(() => undefined)
      .then(
        (row) =>
          live &&
          show(row ? { values: row.values, requestId: row.requestId } : { values: emptyBookingForm, requestId: null }),
      )
      .catch(() => undefined);
    window.addEventListener('pagehide', flush);
    return () => {
      live = false;
      window.removeEventListener('pagehide', flush);
      flush();
    };
  }, [flush, show]);

  const update = useCallback(
    (values: BookingFormValues) => {
      show({ values, requestId: latest.current.requestId });
      unsaved.current = true;
      clearTimeout(timer.current);
      timer.current = setTimeout(flush, saveDelayMs);
    },
    [flush, show],
  );

  const link = useCallback(
    async (requestId: string | null) => {
      clearTimeout(timer.current);
      unsaved.current = false;
      show({ values: latest.current.values, requestId });
      await bookingDraftsTable.put({ id: 'current', ...latest.current, updatedAt: new Date().toISOString() });
    },
    [show],
  );

  const submit = useCallback(
    async (requestId: string, queue: (linkDraft: (tx: LocalTransaction) => Promise<void>) => Promise<unknown>) => {
      clearTimeout(timer.current);
      const next = { values: latest.current.values, requestId };
      try {
        await queue(async (tx) => {
          await bookingDraftsTable.in(tx).put({ id: 'current', ...next, updatedAt: new Date().toISOString() });
        });
      } catch (error) {
        // Nothing was written: what was typed is saved as a plain draft, as it would have been.
        flush();
        throw error;
      }
      unsaved.current = false;
      show(next);
    },
    [flush, show],
  );

  const clear = useCallback(async () => {
    clearTimeout(timer.current);
    unsaved.current = false;
    show({ values: emptyBookingForm, requestId: null });
    await bookingDraftsTable.delete('current');
  }, [show]);

  return { values: draft?.values, requestId: draft?.requestId ?? null, update, link, submit, clear };
}

/** Where the device remembers what the server said of each booking rule (`GET /api/config`). */
const ruleKeys = {
  bookingMinLeadHours: 'tutorbook:booking-lead-hours',
  bookingRescheduleMinHours: 'tutorbook:booking-reschedule-hours',
} as const;
type BookingRule = keyof typeof ruleKeys;

/**
 * DESIGN's defaults (`BOOKING_MIN_LEAD_HOURS`, `BOOKING_RESCHEDULE_MIN_HOURS`): offline on a device that never
 * asked, the best guess there is.
 */
const ruleDefaults: Record<BookingRule, number> = { bookingMinLeadHours: 48, bookingRescheduleMinHours: 24 };

/** What the server said last of the rule on this device, if it ever did. */
function storedRule(rule: BookingRule): number | undefined {
  try {
    const stored = localStorage.getItem(ruleKeys[rule]);
    return stored !== null && stored.trim() !== '' && Number.isFinite(Number(stored)) ? Number(stored) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * A booking rule the server enforces (`GET /api/config`), remembered on the device for offline use. Undefined
 * while the server is being asked: a form that showed a remembered or default value first could say 48 hours
 * while the server enforces another. Offline, or if the server does not answer, the remembered value stands
 * (else the default): a request would only fail.
 */
function useBookingRule(rule: BookingRule): number | undefined {
  const [hours, setHours] = useState<number | undefined>(() =>
    isOffline() ? (storedRule(rule) ?? ruleDefaults[rule]) : undefined,
  );
  useEffect(() => {
    if (isOffline()) return;
    let live = true;
    bookingsApi
      .rules()
      .then((rules) => {
        if (!live) return;
        setHours(rules[rule]);
        try {
          localStorage.setItem(ruleKeys[rule], String(rules[rule]));
        } catch {
          // Storage full or blocked: the value still holds for this visit.
        }
      })
      .catch(() => live && setHours(storedRule(rule) ?? ruleDefaults[rule]));
    return () => {
      live = false;
    };
  }, [rule]);
  return hours;
}

/** The lead time: no requested time sooner than this many hours from now. */
export const useLeadHours = () => useBookingRule('bookingMinLeadHours');

/** The reschedule cut-off: a student moves a session up to this many hours before it starts. */
export const useRescheduleHours = () => useBookingRule('bookingRescheduleMinHours');
