import type { ServerFeature } from '../../feature.ts';
import { noticesPersonalData } from './notices.usecases.ts';

/** Notices: the notifications list, the choices of channel (under `/api/me/*`), the admin's failed deliveries. */
export const noticesFeature: ServerFeature = {
  name: 'notices',
  signedIn: [{ path: '/api/notices/*' }, { path: '/api/admin/deliveries/*' }],
  personalData: noticesPersonalData,
};
