import { betterAuth } from 'better-auth';
import type { Firestore } from 'firebase-admin/firestore';
import type { Logger } from 'pino';
import type { Mail } from '../deps.ts';
import type { Env } from '../env.ts';
import type { EventPublisher } from '../events/events.ts';
import type { OutboxRepository } from '../mail/mail.storage.ts';
import { authOptions, type Auth } from './auth.ts';
import { firestoreAdapter } from './firestore-adapter.ts';
import { firestoreAuthStore } from './firestore-auth-store.ts';

/**
 * better-auth on Firestore, with the product's options (auth.ts `authOptions`): the same `Auth` as createAuth
 * gives on SQL. The verification e-mail's cooldown asks the mail outbox through its repository (the delivery
 * log of the address), whatever engine holds it.
 */
export function createFirestoreAuth(deps: {
  firestore: Firestore;
  outboxRepository: Pick<OutboxRepository, 'listTo'>;
  env: Env;
  secret: string;
  outbox: Mail;
  events: EventPublisher;
  logger: Pick<Logger, 'warn'>;
}): Auth {
  const { firestore, outboxRepository, ...rest } = deps;
  const verificationSentSince = async (to: string, since: Date) =>
    (await outboxRepository.listTo(to)).some(
      (email) => email.kind === 'verification' && new Date(email.createdAt) > since,
    );
  return betterAuth(
    authOptions({
      ...rest,
      database: firestoreAdapter(firestore),
      store: firestoreAuthStore(firestore, { verificationSentSince }),
    }),
  );
}
