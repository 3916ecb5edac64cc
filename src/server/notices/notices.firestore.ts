import type { FirestoreContext } from '../storage/firestore/context.ts';
import type { DeliveriesRepository, NoticesRepository } from './notices.storage.ts';

// Placeholder until the Firestore implementation lands (being written beside this).
export function createNoticesFirestoreRepository(_ctx: FirestoreContext): NoticesRepository {
  throw new Error('notices on Firestore: not yet');
}
export function createDeliveriesFirestoreRepository(_ctx: FirestoreContext): DeliveriesRepository {
  throw new Error('deliveries on Firestore: not yet');
}
