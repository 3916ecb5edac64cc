import { TestimonialsList } from './testimonials-list.tsx';
import { useTestimonials } from './use-testimonials.ts';

/**
 * The quotes from the device's copy of the admin's list. Loaded after hydration, with the offline engine
 * (app/testimonials-route.tsx), so the page itself stays within the public pages' JavaScript budget.
 */
export function DeviceTestimonials() {
  return <TestimonialsList testimonials={useTestimonials().testimonials} />;
}
