import { brand } from '../../../common/brand.ts';
import { PageMeta } from '../../components/page-meta.tsx';
import type { ReactNode } from 'react';
import { SignUpButton } from './sign-up-button.tsx';
import { bodyText, eyebrow, pageTitle } from './ui.tsx';

/**
 * Spec §2 /testimonials: the quotes, and Sign Up Now. `list` is the quotes (`TestimonialsList`): the build's
 * copy as rendered at build time, then the device's copy of the admin's list (app/testimonials-route.tsx).
 */
export function TestimonialsPage({ list }: { list: ReactNode }) {
  return (
    <>
      <PageMeta
        title="Testimonials"
        description={`What students say about tutoring with ${brand.name} in programming, statistics and mathematics.`}
      />

      <div className="bg-linear-to-b from-brand-50 to-slate-50 dark:from-slate-900 dark:to-slate-950">
        <div className="container-page pt-12 pb-8 sm:pt-16 sm:pb-10">
          <p className={eyebrow}>Testimonials</p>
          <h1 className={`mt-3 max-w-3xl ${pageTitle}`}>What students say</h1>
          <p className={`mt-4 max-w-2xl sm:text-lg ${bodyText}`}>
            University students and FET learners on their sessions with {brand.name}.
          </p>
        </div>
      </div>

      <div className="container-page py-6 sm:py-10">
        {list}

        <section
          aria-labelledby="cta-title"
          className="mt-12 flex flex-col items-start gap-6 rounded-2xl bg-brand-800 px-6 py-10 text-white sm:px-10 md:flex-row md:items-center md:justify-between dark:bg-brand-900"
        >
          <div>
            <h2 id="cta-title" className="text-2xl font-bold tracking-tight sm:text-3xl">
              Your turn to pass with confidence
            </h2>
            <p className="mt-2 max-w-xl text-brand-50">Rates as low as R80/hour. Pay only when booking, by EFT.</p>
          </div>
          <SignUpButton
            label="Sign Up Now"
            className="btn w-full shrink-0 bg-white px-6 text-brand-900 hover:bg-brand-50 sm:w-auto"
          />
        </section>
      </div>
    </>
  );
}
