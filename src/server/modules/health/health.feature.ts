import type { ServerFeature } from '../../feature.ts';

/** Public, and answered ahead of the app (health.routes.ts `preparedHealth`). */
export const healthFeature: ServerFeature = { name: 'health' };
