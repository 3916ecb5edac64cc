import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';

/**
 * The only module that reads `process.env`. Bad values stop the process with a clear message.
 * Variables and defaults: README.md "Configuration".
 */
const flag = z
  .enum(['1', '0', 'true', 'false', 'yes', 'no', 'on', 'off', ''])
  .optional()
  .transform((v) => v === '1' || v === 'true' || v === 'yes' || v === 'on');

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
  GOOGLE_CLIENT_ID: z.string().optional(),
  GOOGLE_CLIENT_SECRET: z.string().optional(),
  BOOKING_MIN_LEAD_HOURS: z.coerce
    .number()
    .min(0)
    .max(24 * 60)
    .default(48),
  /** Bank, account name, number, branch code: one line each, separated by `;` or new lines. */
  PAYMENT_EFT_DETAILS: z.string().max(1000).optional(),
  TRUST_PROXY: flag,
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** Turns better-auth's rate limiter on outside production (tests do). */
  RATE_LIMIT: flag,
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
  const databaseUrl = e.DATABASE_URL ?? `file:${path.join(dataDir, 'app.db')}`;
  if (!/^(file:|postgres(ql)?:\/\/)/.test(databaseUrl)) {
    throw new Error('Invalid environment:\n  DATABASE_URL: must start with file: or postgres://');
  }
  return {
    production,
    test: e.NODE_ENV === 'test',
    port: e.PORT,
    host: e.HOST,
    dataDir,
    databaseUrl,
    publicUrl: (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/$/, ''),
    authSecret: e.AUTH_SECRET,
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM ?? 'TutorBook <no-reply@tutorbook.co.za>',
    google:
      e.GOOGLE_CLIENT_ID && e.GOOGLE_CLIENT_SECRET
        ? { clientId: e.GOOGLE_CLIENT_ID, clientSecret: e.GOOGLE_CLIENT_SECRET }
        : undefined,
    bookingMinLeadHours: e.BOOKING_MIN_LEAD_HOURS,
    /** Printed in booking confirmations; undefined (development only): they say whom to ask for them. */
    paymentEftDetails: splitLines(e.PAYMENT_EFT_DETAILS),
    trustProxy: e.TRUST_PROXY,
    logLevel: e.LOG_LEVEL,
    rateLimit: production || e.RATE_LIMIT,
  };
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
