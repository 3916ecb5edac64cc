import { testimonialMessages } from '../../../common/testimonials.ts';
import { createError } from '../../http/errors.ts';

export const createTestimonialNotFoundError = () =>
  createError({ code: 'testimonials.not_found', message: testimonialMessages.notFound, status: 404 });
