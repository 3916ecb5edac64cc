import type { ServerFeature } from '../../feature.ts';
import { createQaPages } from './qa.pages.ts';
import { qaPersonalData } from './qa.usecases.ts';

export const qaFeature: ServerFeature = {
  name: 'qa',
  signedIn: [{ path: '/api/questions/*' }],
  // A question with its answers, and what a write returns.
  compressed: [
    { path: '/api/questions/*', methods: ['POST', 'PUT', 'PATCH', 'DELETE'] },
    { path: '/api/questions/:id', methods: ['GET'] },
  ],
  // The board for a visitor, and `/qa/<id>` for anyone (docs/decisions/0024).
  pages: { signedIn: ['/qa/:id'], create: createQaPages },
  personalData: qaPersonalData,
};
