import { Quote } from 'lucide-react';
import type { TestimonialText } from '../../../common/testimonials-seed.ts';

export function TestimonialCard({ testimonial }: { testimonial: TestimonialText }) {
  return (
    <figure className="card flex h-full flex-col">
      <Quote aria-hidden size={24} className="text-brand-600 dark:text-brand-300" />
      <blockquote className="mt-3 flex-1 text-slate-700 dark:text-slate-300">
        {/* A quote the admin typed on several lines keeps them. */}
        <p className="whitespace-pre-line">{testimonial.quote}</p>
      </blockquote>
      <figcaption className="mt-4 border-t border-slate-200 pt-3 dark:border-slate-800">
        <span className="block font-semibold text-slate-900 dark:text-slate-100">{testimonial.name}</span>
        <span className="text-sm text-slate-700 dark:text-slate-300">{testimonial.course}</span>
      </figcaption>
    </figure>
  );
}
