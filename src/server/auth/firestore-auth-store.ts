import type { Firestore } from 'firebase-admin/firestore';
import type { AuthStore } from './auth.ts';

/** gRPC's NOT_FOUND, as firebase-admin reports an update of a document that is not there. */
const notFound = 5;

/**
 * The AuthStore on Firestore (auth.ts), on the collections firestoreAdapter writes (docs/firestore-layout.md):
 * the same rules as sqlAuthStore, each on single-field indexes. The verification e-mail's cooldown asks the
 * mail outbox, whose Firestore layout is the mail module's: the caller hands that question in.
 */
export function firestoreAuthStore(
  db: Firestore,
  deps: { verificationSentSince: AuthStore['verificationSentSince'] },
): AuthStore {
  return {
    async loginProviders(userId) {
      const found = await db.collection('accounts').where('user_id', '==', userId).get();
      return found.docs.map((login) => login.get('provider_id') as string);
    },

    async forgetResetLinks(userId) {
      // better-auth keeps each link as `reset-password:<token>` holding the user id; Firestore has no LIKE, so
      // the user's few verifications are read and the reset links among them deleted.
      const links = await db.collection('verifications').where('value', '==', userId).get();
      const batch = db.batch();
      for (const link of links.docs)
        if (String(link.get('identifier')).startsWith('reset-password:')) batch.delete(link.ref);
      await batch.commit();
    },

    async markVerified(userId) {
      try {
        await db.collection('users').doc(userId).update({ email_verified: true });
      } catch (error) {
        // Like an UPDATE that finds no row: an account deleted meanwhile has nothing left to verify.
        if ((error as { code?: unknown }).code !== notFound) throw error;
      }
    },

    async replacePasswordHash(oldHash, newHash) {
      // Found by the old value itself (its salt makes it unique): better-auth does not say whose account it is.
      const accounts = await db
        .collection('accounts')
        .where('provider_id', '==', 'credential')
        .where('password', '==', oldHash)
        .get();
      const batch = db.batch();
      for (const account of accounts.docs) batch.update(account.ref, { password: newHash, updated_at: new Date() });
      await batch.commit();
    },

    async userOfPasswordHash(hash) {
      const found = await db
        .collection('accounts')
        .where('provider_id', '==', 'credential')
        .where('password', '==', hash)
        .limit(1)
        .get();
      return found.docs[0]?.get('user_id') as string | undefined;
    },

    verificationSentSince: deps.verificationSentSince,
  };
}
