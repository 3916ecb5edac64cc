import type { ServerFeature } from '../../feature.ts';
import { sessionsPersonalData } from './sessions.usecases.ts';

/** Sessions offered on board questions (issue 39 §4); their routes are under the board's `/api/questions/*`. */
export const sessionsFeature: ServerFeature = {
  name: 'sessions',
  signedIn: [{ path: '/api/questions/:id/offers' }],
  personalData: sessionsPersonalData,
};
