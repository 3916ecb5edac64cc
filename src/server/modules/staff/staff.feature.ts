import type { ServerFeature } from '../../feature.ts';

export const staffFeature: ServerFeature = { name: 'staff', signedIn: [{ path: '/api/staff/*' }] };
