import { Plus } from 'lucide-react';
import { useId, useState } from 'react';
import { testimonialMessages } from '../../../common/testimonials.ts';
import { Notice } from '../../components/notice.tsx';
import { useHydrated } from '../../lib/hydrated.ts';
import { TestimonialAdminRow } from './testimonial-admin-row.tsx';
import { TestimonialForm } from './testimonial-form.tsx';
import { useAllTestimonials } from './use-all-testimonials.ts';

/**
 * The admin's Testimonials: every testimonial in the order the public pages show them, hidden ones too, to add,
 * edit, hide or show, and move up or down. Online only: the list is read from the server as the section opens.
 */
export function ManageTestimonials() {
  const headingId = useId();
  const all = useAllTestimonials();
  // Rendered at build time for the admin's stand-in (decision 0013): nothing takes a click before it is hydrated.
  const hydrated = useHydrated();
  const [adding, setAdding] = useState(false);
  const list = all.data ?? [];

  return (
    <section aria-labelledby={headingId} className="mt-8">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 id={headingId} className="text-xl font-semibold">
          Testimonials
        </h2>
        {!adding && (
          <button type="button" className="btn-primary" disabled={!hydrated} onClick={() => setAdding(true)}>
            <Plus aria-hidden size={18} />
            Add a testimonial
          </button>
        )}
      </div>
      <p className="mt-2 text-slate-700 dark:text-slate-300">
        The testimonials page shows them in this order; hidden ones stay here until you show them again. (The home page
        shows the first three of the original twelve, whatever is changed here.)
      </p>
      {adding && (
        <div className="card mt-4">
          <TestimonialForm
            onDone={(saved) => {
              all.put(saved);
              setAdding(false);
            }}
            onCancel={() => setAdding(false)}
          />
        </div>
      )}
      {(all.status === 'offline' || all.status === 'failed') && (
        <Notice tone={all.status === 'offline' ? 'offline' : 'error'} className="mt-4">
          {all.status === 'offline' ? testimonialMessages.offline : testimonialMessages.fetchFailed}{' '}
          <button type="button" className="link" onClick={all.reload}>
            Try again
          </button>
        </Notice>
      )}
      {all.status === 'loading' ? (
        <div className="card mt-4 h-40 animate-pulse bg-slate-100 dark:bg-slate-800">
          <span role="status" className="sr-only">
            Loading testimonials…
          </span>
        </div>
      ) : (
        list.length > 0 && (
          <ol className="mt-4 flex flex-col gap-4" aria-label="Testimonials, in the order shown">
            {list.map((testimonial, place) => (
              <li key={testimonial.id}>
                <TestimonialAdminRow
                  testimonial={testimonial}
                  place={place}
                  count={list.length}
                  onSaved={all.put}
                  onList={all.replace}
                />
              </li>
            ))}
          </ol>
        )
      )}
      {all.status === 'ready' && list.length === 0 && (
        <p className="card mt-4 text-slate-700 dark:text-slate-300">No testimonials yet. Add the first one.</p>
      )}
    </section>
  );
}
