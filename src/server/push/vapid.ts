import { createECDH, randomBytes } from 'node:crypto';
import { existsSync, linkSync, mkdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import webpush from 'web-push';
import { z } from 'zod';
import { brand } from '../../common/brand.ts';

/**
 * The server's VAPID key pair (RFC 8292), which signs every push it sends (docs/push.md). A browser subscribes with
 * the public key, and its push service then accepts only messages signed with the private one: a new pair makes
 * every subscription useless. So the pair is set once, in the environment (production must), or generated once
 * into the data folder as the development auth secret is.
 */
export interface VapidKeys {
  /** The uncompressed P-256 point (65 bytes), base64url: what the browser's `applicationServerKey` is. */
  publicKey: string;
  /** The P-256 private key (32 bytes), base64url. */
  privateKey: string;
}

export interface VapidDetails extends VapidKeys {
  /** Whom the push service may contact about our messages: a `mailto:` or `https:` URL. */
  subject: string;
}

/** What loadEnv keeps: the subject, and the pair when the environment gives it. */
export interface VapidSettings {
  subject: string;
  keys?: VapidKeys;
}

export const vapidKeysFile = 'vapid-keys.json';

const base64url = /^[A-Za-z0-9_-]+$/;
const bytesOf = (text: string) => Buffer.from(text, 'base64url');

/** The environment's three variables, for src/server/env.ts's schema. */
export const vapidEnvSchema = {
  VAPID_PUBLIC_KEY: z
    .string()
    .refine(
      (key) => base64url.test(key) && bytesOf(key).length === 65 && bytesOf(key)[0] === 4,
      'an uncompressed P-256 public key (65 bytes), base64url without "=", as `npx web-push generate-vapid-keys` prints it',
    )
    .optional(),
  VAPID_PRIVATE_KEY: z
    .string()
    .refine(
      (key) => base64url.test(key) && bytesOf(key).length === 32,
      'a P-256 private key (32 bytes), base64url without "=", as `npx web-push generate-vapid-keys` prints it',
    )
    .optional(),
  VAPID_SUBJECT: z
    .string()
    .refine(
      (subject) => /^mailto:[^@\s]+@[^@\s]+$/.test(subject) || /^https:\/\/[^\s/]+/.test(subject),
      'a mailto: address or an https: URL where the push services can reach the site’s owner',
    )
    .optional(),
};

/** The subject when VAPID_SUBJECT is unset: the business's address (src/common/brand.ts). */
export const defaultVapidSubject = `mailto:${brand.email}`;

/**
 * Both keys or neither; required in production, where the data folder does not outlive a deploy (and each
 * instance would make its own pair). Called by loadEnv, after the schema has checked each key's form.
 */
export function vapidSettings(
  e: { VAPID_PUBLIC_KEY?: string; VAPID_PRIVATE_KEY?: string; VAPID_SUBJECT?: string },
  production: boolean,
): VapidSettings {
  const subject = e.VAPID_SUBJECT ?? defaultVapidSubject;
  const { VAPID_PUBLIC_KEY: publicKey, VAPID_PRIVATE_KEY: privateKey } = e;
  if (publicKey === undefined && privateKey === undefined) {
    if (production)
      throw new Error(
        'Invalid environment:\n  VAPID_PUBLIC_KEY, VAPID_PRIVATE_KEY: required in production (make a pair once with ' +
          '`npx web-push generate-vapid-keys` and keep it: a new pair ends every push subscription)',
      );
    return { subject };
  }
  if (publicKey === undefined || privateKey === undefined)
    throw new Error(
      `Invalid environment:\n  ${publicKey === undefined ? 'VAPID_PRIVATE_KEY' : 'VAPID_PUBLIC_KEY'}: set without ` +
        `${publicKey === undefined ? 'VAPID_PUBLIC_KEY' : 'VAPID_PRIVATE_KEY'}: web push needs both keys of the pair, or neither`,
    );
  const keys = { publicKey, privateKey };
  if (!isKeyPair(keys))
    throw new Error('Invalid environment:\n  VAPID_PRIVATE_KEY: not the private key of VAPID_PUBLIC_KEY');
  return { subject, keys };
}

/** Whether the private key is the public key's: a pair that is not would have every push refused (403). */
function isKeyPair(keys: VapidKeys): boolean {
  try {
    const ecdh = createECDH('prime256v1');
    ecdh.setPrivateKey(bytesOf(keys.privateKey));
    return ecdh.getPublicKey().equals(bytesOf(keys.publicKey));
  } catch {
    return false;
  }
}

/**
 * The keys to sign with: the environment's, or those of `$DATA_DIR/vapid-keys.json`, made there (mode 0600) on the
 * first start. A file that holds no pair stops the start: replacing it would end every subscription, which is the
 * owner's call.
 */
export function resolveVapidKeys(env: { dataDir: string; vapid: VapidSettings }): VapidDetails {
  const { subject, keys } = env.vapid;
  if (keys) return { subject, ...keys };
  const file = path.join(env.dataDir, vapidKeysFile);
  if (existsSync(file)) return { subject, ...readKeysFile(file) };
  mkdirSync(env.dataDir, { recursive: true });
  const made = webpush.generateVAPIDKeys();
  // Written whole beside it, then linked into place: of two processes starting on one data folder, the second
  // finds the first's pair complete (link fails on a name that exists) and reads it.
  const draft = `${file}.${randomBytes(6).toString('hex')}.tmp`;
  writeFileSync(draft, `${JSON.stringify({ publicKey: made.publicKey, privateKey: made.privateKey }, null, 2)}\n`, {
    mode: 0o600,
  });
  try {
    linkSync(draft, file);
    return { subject, ...made };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  } finally {
    unlinkSync(draft);
  }
  return { subject, ...readKeysFile(file) };
}

function readKeysFile(file: string): VapidKeys {
  let stored: unknown;
  try {
    stored = JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    stored = undefined;
  }
  const parsed = z
    .object({ publicKey: vapidEnvSchema.VAPID_PUBLIC_KEY, privateKey: vapidEnvSchema.VAPID_PRIVATE_KEY })
    .safeParse(stored);
  const keys = parsed.success ? parsed.data : undefined;
  if (!keys?.publicKey || !keys.privateKey || !isKeyPair({ publicKey: keys.publicKey, privateKey: keys.privateKey }))
    throw new Error(
      `${file} holds no VAPID key pair ({ "publicKey": …, "privateKey": … }, base64url). Put the pair back, or ` +
        'delete the file for a new one (every push subscription made with the old one then stops working)',
    );
  return { publicKey: keys.publicKey, privateKey: keys.privateKey };
}

/** A new pair as the environment gives it: for what starts the server in production mode on this machine. */
export function newVapidKeysEnv(): { VAPID_PUBLIC_KEY: string; VAPID_PRIVATE_KEY: string } {
  const { publicKey, privateKey } = webpush.generateVAPIDKeys();
  return { VAPID_PUBLIC_KEY: publicKey, VAPID_PRIVATE_KEY: privateKey };
}
