import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { emailKinds } from './mail/email-kinds.ts';
import { vapidEnvSchema, vapidSettings } from './push/vapid.ts';

/**
 * The only module that reads `process.env`. Bad values stop the process with a clear message.
 * Variables and defaults: docs/configuration.md and .env.example.
 */
const flag = z
  .enum(['1', '0', 'true', 'false', 'yes', 'no', 'on', 'off', ''])
  .optional()
  .transform((v) => v === '1' || v === 'true' || v === 'yes' || v === 'on');

/** TRUST_PROXY's words of before it was a number: `on` is the one proxy it meant then. */
const trustProxyWords = new Map(Object.entries({ true: 1, yes: 1, on: 1, false: 0, no: 0, off: 0 }));
const maxTrustedProxies = 5;

// --- WhatsApp (issue 38 §3, docs/whatsapp.md): its settings, read in loadEnv as `whatsapp` -------------------

const whatsAppShape = {
  /**
   * The owner's WhatsApp Business account on Meta's Cloud API: the access token (a system user's, which does not
   * expire), the sending number's id, the app secret that signs the status webhook and the token the webhook's
   * subscription check echoes; all four or none. Unset, nobody is offered WhatsApp notices.
   */
  WHATSAPP_TOKEN: z.string().min(1).optional(),
  WHATSAPP_PHONE_NUMBER_ID: z
    .string()
    .regex(/^\d{1,30}$/, 'digits, as WhatsApp Manager shows the phone number ID')
    .optional(),
  WHATSAPP_APP_SECRET: z.string().min(1).optional(),
  WHATSAPP_VERIFY_TOKEN: z.string().min(1).optional(),
  /** Graph API's base with its version, or a stand-in's (scripts/whatsapp-standin.ts) in tests. */
  WHATSAPP_API_URL: z.url().default('https://graph.facebook.com/v21.0'),
  /** The language code the templates were registered in (WhatsApp Manager), e.g. `en` or `en_US`. */
  WHATSAPP_TEMPLATE_LANGUAGE: z
    .string()
    .regex(/^[a-z]{2,3}(_[A-Z]{2})?$/, 'a template language code as WhatsApp Manager shows it, e.g. en or en_US')
    .default('en'),
};

/**
 * The four WHATSAPP_ keys come together or not at all: without the app secret no status could be trusted, and
 * without the verify token Meta cannot subscribe the webhook. In production the API's URL is https (the token goes
 * to it).
 */
function whatsAppSettings(e: Parsed, production: boolean) {
  const keys = {
    WHATSAPP_TOKEN: e.WHATSAPP_TOKEN,
    WHATSAPP_PHONE_NUMBER_ID: e.WHATSAPP_PHONE_NUMBER_ID,
    WHATSAPP_APP_SECRET: e.WHATSAPP_APP_SECRET,
    WHATSAPP_VERIFY_TOKEN: e.WHATSAPP_VERIFY_TOKEN,
  };
  const missing = Object.entries(keys).filter(([, value]) => value === undefined);
  if (missing.length === 4) return undefined;
  if (missing.length > 0)
    throw new Error(
      `Invalid environment:\n  ${missing.map(([name]) => name).join(', ')}: missing (WhatsApp needs all of WHATSAPP_TOKEN, WHATSAPP_PHONE_NUMBER_ID, WHATSAPP_APP_SECRET and WHATSAPP_VERIFY_TOKEN, or none)`,
    );
  const apiUrl = e.WHATSAPP_API_URL.replace(/\/$/, '');
  if (production && !apiUrl.startsWith('https://'))
    throw new Error('Invalid environment:\n  WHATSAPP_API_URL: must be https:// in production');
  return {
    token: keys.WHATSAPP_TOKEN!,
    phoneNumberId: keys.WHATSAPP_PHONE_NUMBER_ID!,
    appSecret: keys.WHATSAPP_APP_SECRET!,
    verifyToken: keys.WHATSAPP_VERIFY_TOKEN!,
    apiUrl,
    templateLanguage: e.WHATSAPP_TEMPLATE_LANGUAGE,
  };
}

// --- end of WhatsApp ------------------------------------------------------------------------------------------

const schema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default('127.0.0.1'),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: z.string().optional(),
  PUBLIC_URL: z.url().optional(),
  AUTH_SECRET: z.string().min(32, 'AUTH_SECRET must be at least 32 characters').optional(),
  SMTP_URL: z.url().optional(),
  MAIL_FROM: z.string().optional(),
  EMAILJS_SERVICE_ID: z.string().optional(),
  EMAILJS_TEMPLATE_ID: z.string().optional(),
  EMAILJS_PUBLIC_KEY: z.string().optional(),
  EMAILJS_PRIVATE_KEY: z.string().optional(),
  EMAILJS_API_URL: z.url().default('https://api.emailjs.com'),
  /** `kind=template_id` pairs, separated by commas: a kind of e-mail with a template of its own. */
  EMAILJS_TEMPLATES: z.string().optional(),
  GOOGLE_CLIENT_ID: z.string().optional(),
  GOOGLE_CLIENT_SECRET: z.string().optional(),
  BOOKING_MIN_LEAD_HOURS: z.coerce
    .number()
    .min(0)
    .max(24 * 60)
    .default(48),
  /** A student may move a session up to this many hours before it starts (issue 36). */
  BOOKING_RESCHEDULE_MIN_HOURS: z.coerce
    .number()
    .min(0)
    .max(24 * 60)
    .default(24),
  /** Reads of the API a client address may make a minute, where rate limits are on (http/read-limit.ts). */
  READS_PER_MINUTE: z.coerce.number().int().min(1).default(1200),
  /** Live-event streams held at once per signed-in user and per client address (events/events.routes.ts). */
  EVENT_STREAMS_PER_USER: z.coerce.number().int().min(1).max(1000).default(10),
  EVENT_STREAMS_PER_ADDRESS: z.coerce.number().int().min(1).max(100_000).default(200),
  /** Bank, account name, number, branch code: one line each, separated by `;` or new lines. */
  PAYMENT_EFT_DETAILS: z.string().max(1000).optional(),
  /**
   * The business's VAT number, printed on receipts; unset, they say "Not VAT registered". SARS's are ten digits
   * starting with 4; spaces are allowed and dropped.
   */
  VAT_NUMBER: z
    .string()
    .transform((value) => value.replace(/\s/g, ''))
    .pipe(z.string().regex(/^4\d{9}$/, 'a South African VAT number: ten digits starting with 4, e.g. 4123456789'))
    .optional(),
  /**
   * PayFast (issue 37 §4, docs/payfast.md): the merchant's id, key and passphrase from the PayFast dashboard, all
   * three or none; unset, nobody is offered to pay online. PAYFAST_URL: https://sandbox.payfast.co.za to try it,
   * or a stand-in's origin in tests.
   */
  PAYFAST_MERCHANT_ID: z
    .string()
    .regex(/^\d{1,20}$/, 'digits, as the PayFast dashboard shows it')
    .optional(),
  PAYFAST_MERCHANT_KEY: z
    .string()
    .regex(/^[A-Za-z0-9]{1,40}$/, 'letters and digits, as the PayFast dashboard shows it')
    .optional(),
  PAYFAST_PASSPHRASE: z.string().min(1).max(100).optional(),
  PAYFAST_URL: z.url().default('https://www.payfast.co.za'),
  ...whatsAppShape,
  /**
   * How many proxies of our own append to X-Forwarded-For in front of the server (http/client-address.ts,
   * docs/limits.md): 1 for Cloud Run alone, 2 for Firebase Hosting in front of Cloud Run. `on` (as before) is 1.
   */
  TRUST_PROXY: z
    .string()
    .optional()
    .transform((value, ctx) => {
      const count = trustProxyWords.get(value ?? 'off') ?? (/^\d{1,2}$/.test(value ?? '') ? Number(value) : undefined);
      if (count !== undefined && count <= maxTrustedProxies) return count;
      ctx.addIssue({
        code: 'custom',
        message: `the number of proxies that add to X-Forwarded-For in front of the server, 0 to ${maxTrustedProxies} (1: Cloud Run alone; 2: Firebase Hosting in front of Cloud Run), or on/off`,
      });
      return z.NEVER;
    }),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** `host:port` of a Firestore emulator for `import firebase` (firebase-admin reads it too). */
  FIRESTORE_EMULATOR_HOST: z
    .string()
    .regex(/^[^\s/:]+:\d+$/, 'must be host:port, e.g. 127.0.0.1:8080')
    .optional(),
  /** Turns better-auth's rate limiter on outside production (tests do). */
  RATE_LIMIT: flag,
  // --- Web push (issue 38 §2, docs/push.md): VAPID_PUBLIC_KEY, VAPID_PRIVATE_KEY, VAPID_SUBJECT (push/vapid.ts).
  ...vapidEnvSchema,
  // --- end of web push.
});

export type Env = ReturnType<typeof loadEnv>;

export function loadEnv(source: Record<string, string | undefined> = process.env) {
  const parsed = schema.safeParse(emptyToUndefined(source));
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new Error(`Invalid environment:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  const production = e.NODE_ENV === 'production';
  const dataDir = path.resolve(e.DATA_DIR);
  if (production && !e.AUTH_SECRET) throw new Error('Invalid environment:\n  AUTH_SECRET: required in production');
  // Students pay by EFT from the confirmation e-mail: without the bank details they cannot pay.
  if (production && !splitLines(e.PAYMENT_EFT_DETAILS)) {
    throw new Error(
      'Invalid environment:\n  PAYMENT_EFT_DETAILS: required in production (bank, account name, number and branch code, separated by ";")',
    );
  }
  if (Boolean(e.GOOGLE_CLIENT_ID) !== Boolean(e.GOOGLE_CLIENT_SECRET)) {
    throw new Error('Invalid environment:\n  GOOGLE_CLIENT_ID and GOOGLE_CLIENT_SECRET must be set together');
  }
  const emailJs = emailJsSettings(e);
  if (emailJs && e.SMTP_URL) {
    throw new Error(
      'Invalid environment:\n  SMTP_URL and EMAILJS_*: set one way of sending e-mail, not both (unset SMTP_URL to send through EmailJS)',
    );
  }
  const publicUrl = (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/$/, '');
  if (production && !isSecureOrigin(publicUrl)) {
    throw new Error(
      'Invalid environment:\n  PUBLIC_URL: must be https:// in production (http:// only on localhost): ' +
        'over http the session cookie is sent without Secure, readable on the network',
    );
  }
  const payfast = payFastSettings(e, production);
  const databaseUrl = e.DATABASE_URL ?? `file:${path.join(dataDir, 'app.db')}`;
  if (!/^(file:|postgres(ql)?:\/\/|firestore:\/\/)/.test(databaseUrl)) {
    throw new Error('Invalid environment:\n  DATABASE_URL: must start with file:, postgres:// or firestore://');
  }
  const firestore = firestoreOf(databaseUrl);
  // Web push: both keys or neither, required in production (push/vapid.ts).
  const vapid = vapidSettings(e, production);
  return {
    production,
    test: e.NODE_ENV === 'test',
    port: e.PORT,
    host: e.HOST,
    dataDir,
    databaseUrl,
    publicUrl,
    authSecret: e.AUTH_SECRET,
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM ?? 'TutorBook <no-reply@tutorbook.co.za>',
    /** Set: e-mail goes through EmailJS's REST API (mail.transports.ts); SMTP_URL is then unset. */
    emailJs,
    google:
      e.GOOGLE_CLIENT_ID && e.GOOGLE_CLIENT_SECRET
        ? { clientId: e.GOOGLE_CLIENT_ID, clientSecret: e.GOOGLE_CLIENT_SECRET }
        : undefined,
    bookingMinLeadHours: e.BOOKING_MIN_LEAD_HOURS,
    bookingRescheduleMinHours: e.BOOKING_RESCHEDULE_MIN_HOURS,
    /** Printed in booking confirmations; undefined (development only): they say whom to ask for them. */
    paymentEftDetails: splitLines(e.PAYMENT_EFT_DETAILS),
    /** Set: students may pay online through PayFast (server/payfast/payfast.ts); undefined: by EFT only. */
    payfast,
    /** Set: opted-in users get their notices on WhatsApp (server/whatsapp/); undefined: no WhatsApp notices. */
    whatsapp: whatsAppSettings(e, production),
    /** Printed on receipts; undefined: they say "Not VAT registered". */
    vatNumber: e.VAT_NUMBER,
    /** How many proxies append to X-Forwarded-For: the client's entry is that many from the right (0: ignored). */
    trustedProxies: e.TRUST_PROXY,
    streamLimits: { perUser: e.EVENT_STREAMS_PER_USER, perAddress: e.EVENT_STREAMS_PER_ADDRESS },
    logLevel: e.LOG_LEVEL,
    rateLimit: production || e.RATE_LIMIT,
    readsPerMinute: e.READS_PER_MINUTE,
    firestoreEmulatorHost: e.FIRESTORE_EMULATOR_HOST,
    /** Set when DATABASE_URL is `firestore://<project-id>[/<database-id>]`: the Firestore engine's project. */
    firestoreProjectId: firestore?.projectId,
    /**
     * The Firestore database of that project: `(default)` when the URL names none. The new site's data belongs
     * in a database of its own, never in the old site's `(default)` (docs/moving-in-from-firebase.md).
     */
    firestoreDatabaseId: firestore?.databaseId,
    /** Web push: the VAPID subject, and the key pair when set; unset, push/vapid.ts keeps one in the data folder. */
    vapid,
  };
}

/**
 * Google's rule for project ids (6 to 30 lowercase letters, digits and hyphens, starting with a letter, not
 * ending with a hyphen): a typo stops the start here rather than at the first read.
 */
const projectId = /^[a-z][a-z0-9-]{4,28}[a-z0-9]$/;

/**
 * Firestore's rule for database ids (its `databases.create`): 4 to 63 lowercase letters, digits and hyphens,
 * starting with a letter and ending with a letter or digit, not shaped like a UUID; or `(default)`. The
 * emulator takes any name (docs/moving-in-from-firebase.md), so without this check a typo would open an empty
 * database there and fail only on Google.
 */
const databaseId = /^[a-z][a-z0-9-]{2,61}[a-z0-9]$/;
const uuidLike = /[0-9a-f]{8}(-[0-9a-f]{4}){3}-[0-9a-f]{12}/;
export const defaultFirestoreDatabase = '(default)';

function firestoreOf(databaseUrl: string): { projectId: string; databaseId: string } | undefined {
  if (!databaseUrl.startsWith('firestore://')) return undefined;
  const [project = '', database = defaultFirestoreDatabase, ...rest] = databaseUrl
    .slice('firestore://'.length)
    .replace(/\/$/, '')
    .split('/');
  if (!projectId.test(project)) {
    throw new Error(
      `Invalid environment:\n  DATABASE_URL: firestore://<project-id>[/<database-id>], where the project id is 6 to 30 lowercase letters, digits and hyphens, starting with a letter (got "${project}")`,
    );
  }
  const validDatabase =
    database === defaultFirestoreDatabase || (databaseId.test(database) && !uuidLike.test(database));
  if (rest.length > 0 || !validDatabase) {
    throw new Error(
      `Invalid environment:\n  DATABASE_URL: firestore://<project-id>/<database-id>, where the database id is 4 to 63 lowercase letters, digits and hyphens, starting with a letter and ending with a letter or digit, or (default) (got "${[database, ...rest].join('/')}")`,
    );
  }
  return { projectId: project, databaseId: database };
}

/** Every variable the server reads: `.env.example` and docs/configuration.md name each (env.test.ts). */
export const settingNames: readonly string[] = Object.keys(schema.shape);

type Parsed = z.infer<typeof schema>;

/**
 * The three PAYFAST_ keys come together or not at all: without the passphrase no notice could be checked (PayFast
 * signs with it). In production the URL is https (a notice's check is posted to it).
 */
function payFastSettings(e: Parsed, production: boolean) {
  const keys = {
    PAYFAST_MERCHANT_ID: e.PAYFAST_MERCHANT_ID,
    PAYFAST_MERCHANT_KEY: e.PAYFAST_MERCHANT_KEY,
    PAYFAST_PASSPHRASE: e.PAYFAST_PASSPHRASE,
  };
  const set = Object.entries(keys).filter(([, value]) => value !== undefined);
  if (set.length === 0) return undefined;
  if (set.length < 3)
    throw new Error(
      `Invalid environment:\n  ${set.map(([name]) => name).join(', ')}: PayFast needs all of PAYFAST_MERCHANT_ID, PAYFAST_MERCHANT_KEY and PAYFAST_PASSPHRASE`,
    );
  const url = e.PAYFAST_URL.replace(/\/$/, '');
  if (production && !url.startsWith('https://'))
    throw new Error('Invalid environment:\n  PAYFAST_URL: must be https:// in production');
  return {
    merchantId: keys.PAYFAST_MERCHANT_ID!,
    merchantKey: keys.PAYFAST_MERCHANT_KEY!,
    passphrase: keys.PAYFAST_PASSPHRASE!.trim(),
    url,
  };
}

/** The four EMAILJS_ keys come together or not at all; EMAILJS_TEMPLATES names kinds the app sends. */
function emailJsSettings(e: Parsed) {
  const keys = {
    EMAILJS_SERVICE_ID: e.EMAILJS_SERVICE_ID,
    EMAILJS_TEMPLATE_ID: e.EMAILJS_TEMPLATE_ID,
    EMAILJS_PUBLIC_KEY: e.EMAILJS_PUBLIC_KEY,
    EMAILJS_PRIVATE_KEY: e.EMAILJS_PRIVATE_KEY,
  };
  const missing = Object.entries(keys).filter(([, value]) => !value);
  if (missing.length === 4) {
    if (e.EMAILJS_TEMPLATES)
      throw new Error('Invalid environment:\n  EMAILJS_TEMPLATES: set without EMAILJS_SERVICE_ID');
    return undefined;
  }
  if (missing.length > 0) {
    const names = missing.map(([name]) => name).join(', ');
    throw new Error(
      `Invalid environment:\n  ${names}: EmailJS needs all of EMAILJS_SERVICE_ID, EMAILJS_TEMPLATE_ID, EMAILJS_PUBLIC_KEY and EMAILJS_PRIVATE_KEY`,
    );
  }
  return {
    apiUrl: e.EMAILJS_API_URL,
    serviceId: keys.EMAILJS_SERVICE_ID!,
    templateId: keys.EMAILJS_TEMPLATE_ID!,
    publicKey: keys.EMAILJS_PUBLIC_KEY!,
    privateKey: keys.EMAILJS_PRIVATE_KEY!,
    templates: templatesByKind(e.EMAILJS_TEMPLATES),
  };
}

function templatesByKind(text: string | undefined): Record<string, string> {
  const templates: Record<string, string> = {};
  for (const pair of (text ?? '')
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean)) {
    const [kind = '', template = ''] = pair.split('=').map((part) => part.trim());
    if (!(emailKinds as readonly string[]).includes(kind) || !template) {
      throw new Error(
        `Invalid environment:\n  EMAILJS_TEMPLATES: "${pair}" is not kind=template_id with one of the kinds ${emailKinds.join(', ')}`,
      );
    }
    templates[kind] = template;
  }
  return templates;
}

/**
 * https, or http on this machine only: what browsers call potentially trustworthy, and where better-auth's
 * session cookie (Secure only when PUBLIC_URL is https, auth.ts) never crosses a network.
 */
function isSecureOrigin(url: string): boolean {
  const { protocol, hostname } = new URL(url);
  if (protocol === 'https:') return true;
  const loopback =
    hostname === 'localhost' ||
    hostname.endsWith('.localhost') ||
    hostname === '[::1]' ||
    /^127(\.\d{1,3}){3}$/.test(hostname);
  return protocol === 'http:' && loopback;
}

function splitLines(text: string | undefined): string[] | undefined {
  const lines = text
    ?.split(/[;\n]/)
    .map((line) => line.trim())
    .filter(Boolean);
  return lines?.length ? lines : undefined;
}

function emptyToUndefined(source: Record<string, string | undefined>) {
  return Object.fromEntries(Object.entries(source).map(([k, v]) => [k, v === '' ? undefined : v]));
}

/**
 * Development convenience: a random secret kept in the data folder so sessions survive restarts.
 * Production must set AUTH_SECRET (checked in loadEnv).
 */
export function resolveAuthSecret(env: Env): string {
  if (env.authSecret) return env.authSecret;
  const file = path.join(env.dataDir, 'auth-secret');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(env.dataDir, { recursive: true });
  const secret = randomBytes(32).toString('base64url');
  writeFileSync(file, secret, { mode: 0o600 });
  return secret;
}
