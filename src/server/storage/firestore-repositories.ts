import { createAccountsFirestoreRepository } from '../auth/accounts.firestore.ts';
import { createRefusalsFirestoreRepository } from '../http/refusals.firestore.ts';
import { createImportLedgerFirestoreRepository } from '../import/import-ledger.firestore.ts';
import { createOutboxFirestoreRepository } from '../mail/mail.firestore.ts';
import { createBookingsFirestoreRepository } from '../modules/bookings/bookings.firestore.ts';
import { createCatalogueFirestoreRepository } from '../modules/catalogue/catalogue.firestore.ts';
import { createProfileFirestoreRepository } from '../modules/profile/profile.firestore.ts';
import { createQaFirestoreRepository } from '../modules/qa/qa.firestore.ts';
import { createTestimonialsFirestoreRepository } from '../modules/testimonials/testimonials.firestore.ts';
import type { FirestoreRepositoryFactories } from './firestore-storage.ts';

/**
 * The repositories of the Firestore engine (issue 21): each feature's `create<Feature>FirestoreRepository`.
 * Start-up on Firestore refuses while one is missing (server.ts).
 */
export const firestoreRepositoryFactories: FirestoreRepositoryFactories = {
  accounts: createAccountsFirestoreRepository,
  bookings: (ctx, { positions }) => createBookingsFirestoreRepository(ctx, positions),
  catalogue: createCatalogueFirestoreRepository,
  importLedger: createImportLedgerFirestoreRepository,
  outbox: createOutboxFirestoreRepository,
  profile: createProfileFirestoreRepository,
  qa: (ctx, { positions }) => createQaFirestoreRepository(ctx, positions, createAccountsFirestoreRepository(ctx)),
  refusals: createRefusalsFirestoreRepository,
  testimonials: createTestimonialsFirestoreRepository,
};
