import { createCatalogueFirestoreRepository } from '../modules/catalogue/catalogue.firestore.ts';
import type { FirestoreRepositoryFactories } from './firestore-storage.ts';

/**
 * The repositories the Firestore engine has (issue 21): each feature's `create<Feature>FirestoreRepository`,
 * added here as it is written. Start-up on Firestore refuses while one is missing (server.ts).
 */
export const firestoreRepositoryFactories: FirestoreRepositoryFactories = {
  catalogue: createCatalogueFirestoreRepository,
};
