import type { ServerFeature } from '../../feature.ts';

/** `/api/me` and `/api/session`; the profile's routes under `/api/me/*` read the session through this too. */
export const meFeature: ServerFeature = {
  name: 'me',
  signedIn: [{ path: '/api/me/*' }, { path: '/api/session' }],
};
