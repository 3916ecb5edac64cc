import { TestimonialCard } from './testimonial-card.tsx';
import type { ShownTestimonial } from './testimonials-shown.ts';

/** The quotes as cards, in the order given; a short line when there are none (the admin hid them all). */
export function TestimonialsList({ testimonials }: { testimonials: readonly ShownTestimonial[] }) {
  if (testimonials.length === 0)
    return <p className="card text-slate-700 dark:text-slate-300">No testimonials to show just now.</p>;
  return (
    <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
      {testimonials.map((t, i) => (
        <li key={t.id ?? i}>
          <TestimonialCard testimonial={t} />
        </li>
      ))}
    </ul>
  );
}
