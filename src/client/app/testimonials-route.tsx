import { lazy, Suspense } from 'react';
import { testimonialSeed } from '../../common/testimonials-seed.ts';
import { TestimonialsList } from '../features/public/testimonials-list.tsx';
import { TestimonialsPage } from '../features/public/testimonials-page.tsx';
import { wantEngine } from '../lib/engine-wanted.ts';
import { useHydrated } from '../lib/hydrated.ts';
import { useIdle } from '../lib/idle.ts';

/**
 * The device's copy of the testimonials: the offline engine with every feature's table declared (offline-setup.ts)
 * first, since the database must not open before they are, then the part that reads it. Not part of the page's
 * first load (scripts/check-js-budget.ts); from then on the engine runs, and keeps the copy fresh.
 */
const DeviceTestimonials = lazy(async () => {
  wantEngine();
  await import('./offline-setup.ts');
  const { DeviceTestimonials } = await import('../features/public/device-testimonials.tsx');
  return { default: DeviceTestimonials };
});

/**
 * /testimonials (docs/decisions/0043): rendered at build time with the build's copy of the testimonials, which the
 * page shows until the device's copy of the admin's list is read. Once the page is hydrated and the browser idle
 * (as the service worker is registered, app.tsx), that copy is loaded, and read offline from then on.
 */
export function TestimonialsRoute() {
  const hydrated = useHydrated();
  const idle = useIdle();
  const built = <TestimonialsList testimonials={testimonialSeed} />;
  return (
    <TestimonialsPage
      list={
        hydrated && idle ? (
          <Suspense fallback={built}>
            <DeviceTestimonials />
          </Suspense>
        ) : (
          built
        )
      }
    />
  );
}
