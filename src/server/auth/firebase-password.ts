import { hashPassword, verifyPassword } from 'better-auth/crypto';
import { FirebaseScrypt } from 'firebase-scrypt';
import type { Db } from '../db/create-db.ts';

/**
 * Passwords of accounts brought from the old Firebase site (`npm run cli -- import firebase`, decision 0023).
 * Firebase Authentication hashes with a modified scrypt keyed by the project's parameters; the import stores
 * each such hash in the account's password column with those parameters, under a prefix no better-auth hash
 * has (better-auth writes `<salt hex>:<key hex>`), so one row is all a login needs to check it.
 */
const prefix = '$firebase-scrypt$';
/** The start of every imported Firebase hash as stored (the repositories count the ones left). */
export const firebaseHashPrefix = prefix;

/** The project's "Password hash parameters", as the Firebase console shows them (base64 strings as given). */
export interface FirebaseHashConfig {
  signerKey: string;
  saltSeparator: string;
  rounds: number;
  memCost: number;
}

/** The password column's value for a Firebase hash: `$firebase-scrypt$<memCost>,<rounds>$<separator>$<key>$<salt>$<hash>`. */
export function encodeFirebaseHash(config: FirebaseHashConfig, salt: string, hash: string): string {
  // Standard base64 never holds `$`, so the parts split back unambiguously.
  return `${prefix}${config.memCost},${config.rounds}$${config.saltSeparator}$${config.signerKey}$${salt}$${hash}`;
}

export const isFirebaseHash = (stored: string) => stored.startsWith(prefix);

function decodeFirebaseHash(stored: string) {
  const [costs = '', saltSeparator = '', signerKey = '', salt = '', hash = ''] = stored.slice(prefix.length).split('$');
  const [memCost, rounds] = costs.split(',').map(Number);
  return { config: { signerKey, saltSeparator, rounds: rounds ?? NaN, memCost: memCost ?? NaN }, salt, hash };
}

/** Whether `password` is the one Firebase hashed; a stored value that does not decode matches nothing. */
export async function verifyFirebaseHash(stored: string, password: string): Promise<boolean> {
  const { config, salt, hash } = decodeFirebaseHash(stored);
  if (!salt || !hash || !Number.isInteger(config.rounds) || !Number.isInteger(config.memCost)) return false;
  try {
    return await new FirebaseScrypt(config).verify(password, salt, hash);
  } catch {
    // Parameters that cannot be right (scrypt refuses them): nothing matches.
    return false;
  }
}

/**
 * better-auth's password check (`emailAndPassword.password`): its own hash as always, and a Firebase hash
 * checked once — when it matches, `replace` puts better-auth's own hash of the same password in its place at
 * once, so the Firebase hash and the project's parameters leave the database with the first good login. One
 * that does not match is told to `refused`, which logs whose it was: a wrong password looks the same, but
 * wrong hash parameters at the import refuse every imported account, and only the log shows it (issue 33).
 */
export function passwordChecks(deps: {
  replace: (oldHash: string, newHash: string) => Promise<void>;
  refused: (firebaseHash: string) => Promise<void>;
}) {
  return {
    hash: hashPassword,
    async verify({ hash, password }: { hash: string; password: string }): Promise<boolean> {
      if (!isFirebaseHash(hash)) return verifyPassword({ hash, password });
      if (!(await verifyFirebaseHash(hash, password))) {
        await deps.refused(hash);
        return false;
      }
      await deps.replace(hash, await hashPassword(password));
      return true;
    },
  };
}

/** The SQL engines' owner of an imported Firebase hash, for the log of a refused one (passwordChecks). */
export async function userOfPasswordHash(db: Db, hash: string): Promise<string | undefined> {
  const row = await db
    .selectFrom('accounts')
    .select('user_id')
    .where('provider_id', '=', 'credential')
    .where('password', '=', hash)
    .executeTakeFirst();
  return row?.user_id;
}

/** The SQL engines' `replace` for passwordChecks. */
export async function replaceFirebaseHash(db: Db, oldHash: string, newHash: string): Promise<void> {
  // Found by the old value itself (its salt makes it unique): better-auth does not say whose account it is.
  await db
    .updateTable('accounts')
    .set({ password: newHash, updated_at: new Date() })
    .where('provider_id', '=', 'credential')
    .where('password', '=', oldHash)
    .execute();
}
