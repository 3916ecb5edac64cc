import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { bookingMessages } from '../../../common/bookings.ts';
import { toast } from '../../lib/toast.ts';
import type { ChangeState } from '../../offline/engine.ts';
import { useChange, useSyncStatus } from '../../offline/hooks.ts';
import type { BookingDraft } from './use-booking-draft.ts';

export interface DraftRequest {
  /** Where the request the draft is linked to is; undefined while it is read, and for a draft not submitted. */
  current: ChangeState | undefined;
  /** The form can be shown: the draft is a plain one, this page's own request, or a refused one to put right. */
  ready: boolean;
  /** This page is submitting the draft as `requestId` (null: the submit failed before anything was queued). */
  submitting(requestId: string | null): void;
}

/**
 * What becomes of the booking form as its request goes (spec §4, §8 Booking). Only the request this page
 * submitted moves the student on, as it ends: sent, or saved on the device to go later (offline, or a try that
 * failed), to the dashboard, which shows it as waiting to send. A request from an earlier visit that is still
 * on its way lives on in the outbox and the dashboard: the page offers a new form instead of its locked copy,
 * and its sending later moves nobody away from what they are typing. A refused one is shown to be put right.
 * `busy`: a submit is relinking the draft, so its request's states mean nothing yet.
 */
export function useDraftRequest(draft: BookingDraft, busy: boolean): DraftRequest {
  const navigate = useNavigate();
  const { online } = useSyncStatus();
  const { clear, link, requestId } = draft;
  const request = useChange(requestId ? { table: 'bookings', id: requestId } : undefined);
  const [submittedId, setSubmittedId] = useState<string | null>(null);
  // The last answer may still be about the request the draft was linked to before.
  const current = request?.target.id === requestId ? request : undefined;
  const state = current?.state;
  const ours = requestId !== null && requestId === submittedId;
  const saved = current?.state === 'waiting' && (!online || current.attempts > 0);

  useEffect(() => {
    if (busy || requestId === null) return;
    if (state === 'waiting' || state === 'sending') {
      if (!ours) return void clear();
      if (!saved) return;
      // Saved on this device and sent by itself later: the booking ends here, as it does online.
      void clear();
      toast.info(online ? bookingMessages.retrying : bookingMessages.queued);
      void navigate('/student-dashboard');
    } else if (state === 'done') {
      // A draft found already accepted when the page opens is simply cleared.
      void clear();
      if (ours) {
        // Spec §4: on success the form is cleared and the student goes to the dashboard.
        toast.success(bookingMessages.sent);
        void navigate('/student-dashboard');
      }
    } else if (state === 'none') {
      // Discarded from the list of unsent items: the draft is a plain draft again.
      void link(null);
    }
  }, [busy, requestId, state, ours, saved, online, clear, link, navigate]);

  return {
    current,
    ready: requestId === null || ours || state === 'attention',
    submitting: setSubmittedId,
  };
}
