import { useEffect, useMemo, useRef, useState, type FormEvent } from 'react';
import { bookingMessages } from '../../../common/bookings.ts';
import { useConfirm } from '../../components/confirm-dialog.tsx';
import { errorText } from '../../lib/error-text.ts';
import { useSession } from '../../lib/session.tsx';
import { discardItem } from '../../offline/engine.ts';
import { checkBookingForm, type BookingFormErrors, type BookingFormValues, type ModuleInfo } from './booking-rules.ts';
import { requestBooking } from './bookings.sync.ts';
import { useBookingDraft, useLeadHours } from './use-booking-draft.ts';
import { useDraftRequest } from './use-draft-request.ts';

/** The question an offer links (`?question=`), and what to do once it is in the draft (drop it from the address). */
export interface QuestionLink {
  questionId: string | undefined;
  linked(): void;
}

/**
 * The booking form's state: the draft (IndexedDB), the server's lead time, the messages next to the fields
 * (the form's own check, or what a refused request said) and the submit, which asks first and then queues the
 * request linked to the draft (use-draft-request.ts follows it from there).
 */
export function useBookingForm(module: ModuleInfo, link?: QuestionLink) {
  const { session } = useSession();
  const me = session.me;
  const confirm = useConfirm();
  const draft = useBookingDraft();
  const leadHours = useLeadHours();
  const [errors, setErrors] = useState<BookingFormErrors>({});
  const [submitting, setSubmitting] = useState(false);
  const [localError, setLocalError] = useState<string>();
  // The request's fate decides what becomes of the draft and the page (not while a submit is relinking it).
  const { current, ready, submitting: submittingAs } = useDraftRequest(draft, submitting);
  const formRef = useRef<HTMLFormElement>(null);
  const focusFirstError = useRef(false);

  const values = draft.values;
  const state = current?.state;
  const waiting = state === 'waiting' || state === 'sending';

  useEffect(() => {
    if (!focusFirstError.current) return;
    focusFirstError.current = false;
    formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  });

  // A refused request: the fields say what the server said, where the rule is one the form knows (a date
  // now too close, say), until the student has put it right.
  const refused = state === 'attention';
  const refusal = useMemo(
    () =>
      refused && values && leadHours !== undefined
        ? (checkBookingForm({ id: crypto.randomUUID(), module: module.name, values }, { now: new Date(), leadHours })
            .errors ?? {})
        : {},
    [refused, values, module.name, leadHours],
  );

  // A tutor's offer opened the page (issue 39 §4): its question goes into the draft, saved as any field is.
  const linking = link?.questionId;
  const linked = link?.linked;
  useEffect(() => {
    if (!linking || !values) return;
    if (values.questionId !== linking) draft.update({ ...values, questionId: linking });
    linked?.();
  }, [linking, linked, values, draft]);

  const set = (patch: Partial<BookingFormValues>) => {
    if (!values) return;
    draft.update({ ...values, ...patch });
    // A message is about what was there when it was checked: changing the field takes it away.
    setErrors((current) => Object.fromEntries(Object.entries(current).filter(([field]) => !(field in patch))));
  };

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!values || !me || submitting || waiting || leadHours === undefined) return;
    setLocalError(undefined);
    const id = crypto.randomUUID();
    const checked = checkBookingForm({ id, module: module.name, values }, { now: new Date(), leadHours });
    if (checked.errors) {
      setErrors(checked.errors);
      focusFirstError.current = true;
      return;
    }
    setErrors({});
    if (
      !(await confirm({
        title: 'Submit booking request',
        message: bookingMessages.confirmSubmit,
        confirmLabel: 'Submit',
      }))
    )
      return;
    setSubmitting(true);
    try {
      // A refused earlier request from this draft is replaced by this one (with a new id: the old one may be
      // refused for its id alone).
      if (current?.state === 'attention') await discardItem(current.seq);
      submittingAs(id);
      // Queued and linked to the draft in one transaction: a page that dies in between cannot leave the draft
      // editable with its request already queued (submitted again, it would book twice).
      await draft.submit(id, (linkDraft) =>
        requestBooking(
          {
            ...checked.data,
            student: { id: me.id, name: me.name, email: me.email },
            moduleCategory: module.category,
            priceCentsPerHour: module.rateCents,
            createdAt: new Date().toISOString(),
          },
          { also: linkDraft },
        ),
      );
    } catch (error) {
      // Not even saved on this device (storage full, say): nothing was queued, the form keeps everything.
      submittingAs(null);
      setLocalError(errorText(error, bookingMessages.failed));
    } finally {
      setSubmitting(false);
    }
  }

  const shown: BookingFormErrors = { ...refusal, ...errors };
  const clear = () => void draft.clear();
  return { formRef, me, values, leadHours, ready, current, waiting, submitting, localError, shown, set, submit, clear };
}
