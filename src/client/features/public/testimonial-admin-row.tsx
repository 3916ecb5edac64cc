import { useEffect, useId, useRef, useState } from 'react';
import { testimonialMessages, type Testimonial } from '../../../common/testimonials.ts';
import { useConfirm } from '../../components/confirm-dialog.tsx';
import { isOffline } from '../../lib/api.ts';
import { errorText } from '../../lib/error-text.ts';
import { toast } from '../../lib/toast.ts';
import { TestimonialForm } from './testimonial-form.tsx';
import { TestimonialRowButtons, VisibilityLabel } from './testimonial-row-buttons.tsx';
import { testimonialsAdminApi } from './testimonials-admin-api.ts';

/**
 * One testimonial in the admin's list: its text, whether it is shown, and its controls. `place` is its place in
 * the order (from 0) of `count`; `onList` takes the whole list a move answers with, `onSaved` one testimonial.
 */
export function TestimonialAdminRow({
  testimonial,
  place,
  count,
  onSaved,
  onList,
}: {
  testimonial: Testimonial;
  place: number;
  count: number;
  onSaved: (saved: Testimonial) => void;
  onList: (list: Testimonial[]) => void;
}) {
  const confirm = useConfirm();
  const nameId = useId();
  const [editing, setEditing] = useState(false);
  const [busy, setBusy] = useState(false);
  const editButton = useRef<HTMLButtonElement>(null);
  const wasEditing = useRef(false);

  // Keyboard users land back on Edit when the form closes.
  useEffect(() => {
    if (wasEditing.current && !editing) editButton.current?.focus();
    wasEditing.current = editing;
  }, [editing]);

  async function run<T>(action: () => Promise<T>, then: (result: T) => void, done: string, failed: string) {
    if (isOffline()) return void toast.error(testimonialMessages.offline);
    setBusy(true);
    try {
      then(await action());
      toast.success(done);
    } catch (error) {
      toast.error(errorText(error, failed, { offline: testimonialMessages.offline }));
    } finally {
      setBusy(false);
    }
  }

  const { id, name, hidden } = testimonial;
  const move = (to: number) =>
    run(
      () => testimonialsAdminApi.move(id, { position: to }),
      onList,
      testimonialMessages.moved,
      testimonialMessages.moveFailed,
    );
  async function toggle() {
    if (!hidden) {
      const sure = await confirm({
        title: 'Hide testimonial',
        message: testimonialMessages.hideConfirm(name),
        confirmLabel: 'Hide',
        destructive: true,
      });
      if (!sure) return;
    }
    await run(
      () => testimonialsAdminApi.update(id, { hidden: !hidden }),
      onSaved,
      hidden ? testimonialMessages.shown : testimonialMessages.hidden,
      testimonialMessages.updateFailed,
    );
  }

  return (
    <article aria-labelledby={nameId} className={`card ${hidden ? 'border-dashed' : ''}`}>
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h3 id={nameId} className="text-lg font-semibold">
          {name} <span className="font-normal text-slate-600 dark:text-slate-400">· {testimonial.course}</span>
        </h3>
        <VisibilityLabel hidden={hidden} />
      </div>
      {editing ? (
        <div className="mt-4">
          <TestimonialForm
            testimonial={testimonial}
            onDone={(saved) => {
              onSaved(saved);
              setEditing(false);
            }}
            onCancel={() => setEditing(false)}
          />
        </div>
      ) : (
        <>
          <p className="mt-2 whitespace-pre-line text-slate-700 dark:text-slate-300">{testimonial.quote}</p>
          <TestimonialRowButtons
            describedBy={nameId}
            busy={busy}
            first={place === 0}
            last={place === count - 1}
            hidden={hidden}
            editButton={editButton}
            onMove={(by) => void move(place + by)}
            onEdit={() => setEditing(true)}
            onToggle={() => void toggle()}
          />
        </>
      )}
    </article>
  );
}
