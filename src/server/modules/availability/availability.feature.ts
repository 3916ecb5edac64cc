import type { ServerFeature } from '../../feature.ts';
import { availabilityPersonalData } from './availability.usecases.ts';

export const availabilityFeature: ServerFeature = {
  name: 'availability',
  // Every route acts for someone: nobody reads a tutor's hours signed out. (Hono's `/*` takes the bare path too.)
  signedIn: [{ path: '/api/availability/*' }],
  personalData: availabilityPersonalData,
};
