import type { ServerFeature } from '../../feature.ts';

/** Its own enrolments join the other features' personal data in its routes (profile.routes.ts). */
export const profileFeature: ServerFeature = {
  name: 'profile',
  // The data export, and what a write returns.
  compressed: [
    { path: '/api/me/*', methods: ['POST', 'PUT', 'PATCH', 'DELETE'] },
    { path: '/api/me/export', methods: ['GET'] },
  ],
};
