import type { TestimonialText } from '../../../common/testimonials-seed.ts';

/** A testimonial as the public pages show it: the build's copy has no id, the device's copy has. */
export type ShownTestimonial = TestimonialText & { id?: string };
