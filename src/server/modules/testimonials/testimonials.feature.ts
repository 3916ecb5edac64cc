import type { ServerFeature } from '../../feature.ts';

export const testimonialsFeature: ServerFeature = {
  name: 'testimonials',
  // The public list is read without it; the admin's list and every change need it.
  signedIn: [
    { path: '/api/testimonials/all', methods: ['GET'] },
    { path: '/api/testimonials/*', methods: ['POST', 'PATCH', 'DELETE'] },
  ],
};
