import type { ServerFeature } from '../../feature.ts';

export const catalogueFeature: ServerFeature = {
  name: 'catalogue',
  // Its reads are public and the busiest route (bench/run.ts): only its writes read the session.
  signedIn: [{ path: '/api/modules/*', methods: ['POST', 'PATCH', 'DELETE'] }],
};
