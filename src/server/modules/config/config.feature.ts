import type { ServerFeature } from '../../feature.ts';

/** Public: what the client needs to know about this deployment. */
export const configFeature: ServerFeature = { name: 'config' };
