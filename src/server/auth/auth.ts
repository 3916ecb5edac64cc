import { betterAuth, type BetterAuthOptions } from 'better-auth';
import { createAuthMiddleware, isAPIError } from 'better-auth/api';
import { brand } from '../../common/brand.ts';
import type { Db, DbKind } from '../db/create-db.ts';
import type { Env } from '../env.ts';
import {
  accountExistsEmail,
  firstPasswordEmail,
  passwordResetEmail,
  staffInvitationEmail,
  verificationEmail,
  welcomeEmail,
} from '../mail/mail.templates.ts';
import type { Mail } from '../deps.ts';
import type { Logger } from 'pino';
import { passwordChecks, replaceFirebaseHash, userOfPasswordHash } from './firebase-password.ts';
import { publishAccessChange, type EventPublisher } from '../events/events.ts';

/** The header our HTTP layer sets from the connection; better-auth rate-limits by it. */
export const clientIpHeader = 'x-tutorbook-client-ip';

const day = 24 * 60 * 60;
export const verificationCooldownMs = 60_000;
const timestamps = { createdAt: 'created_at', updatedAt: 'updated_at' } as const;

export type Auth = ReturnType<typeof createAuth>;

/**
 * What the options below ask of storage besides better-auth's own adapter: the product's few rules on
 * authentication's records, on whichever engine holds them (sqlAuthStore below; firestore-auth-store.ts).
 */
export interface AuthStore {
  /**
   * The user's ways to log in, as provider ids (`credential` for a password, `google`): none for invited staff
   * until they set a password, `google` alone for someone who only ever continued with Google.
   */
  loginProviders(userId: string): Promise<string[]>;
  /** Ends every outstanding reset (or invitation) link of the user. */
  forgetResetLinks(userId: string): Promise<void>;
  /** The address counts as proven (a reset link reached it). */
  markVerified(userId: string): Promise<void>;
  /** Puts better-auth's hash where an imported Firebase hash was (firebase-password.ts). */
  replacePasswordHash(oldHash: string, newHash: string): Promise<void>;
  /** Whose password login holds this (imported Firebase) hash: the log of a refused one names the account. */
  userOfPasswordHash(hash: string): Promise<string | undefined>;
  /** Whether a verification e-mail to `to` was queued since then (the mail outbox's records). */
  verificationSentSince(to: string, since: Date): Promise<boolean>;
}

export function createAuth(deps: {
  db: Db;
  kind: DbKind;
  env: Env;
  secret: string;
  outbox: Mail;
  /** Told when sessions end, so that every process checks the streams they opened (events/stream-hub.ts). */
  events: EventPublisher;
  logger: Pick<Logger, 'warn'>;
}) {
  const { db, kind, ...rest } = deps;
  return betterAuth(authOptions({ ...rest, database: { db, type: kind }, store: sqlAuthStore(db) }));
}

/**
 * better-auth's options as the product sets them, for any engine: `database` is what better-auth stores
 * through (Kysely on SQL; firestoreAdapter on Firestore), `store` the rest (AuthStore).
 */
export function authOptions(deps: {
  database: BetterAuthOptions['database'];
  store: AuthStore;
  env: Env;
  secret: string;
  outbox: Mail;
  events: EventPublisher;
  logger: Pick<Logger, 'warn'>;
}) {
  const { store, env, outbox, events, logger } = deps;

  const queueWelcome = (user: { id: string; name: string; email: string }) =>
    outbox.enqueue({
      kind: 'welcome',
      to: user.email,
      toName: user.name,
      dedupeKey: `welcome:${user.id}`,
      ...welcomeEmail(user.name, env.publicUrl),
    });

  return {
    appName: brand.name,
    baseURL: env.publicUrl,
    basePath: '/api/auth',
    secret: deps.secret,
    trustedOrigins: [env.publicUrl],
    database: deps.database,
    user: {
      modelName: 'users',
      fields: { emailVerified: 'email_verified', ...timestamps },
      additionalFields: { role: { type: 'string', required: false, defaultValue: 'student', input: false } },
    },
    session: {
      modelName: 'sessions',
      fields: {
        userId: 'user_id',
        expiresAt: 'expires_at',
        ipAddress: 'ip_address',
        userAgent: 'user_agent',
        ...timestamps,
      },
    },
    account: {
      modelName: 'accounts',
      fields: {
        userId: 'user_id',
        accountId: 'account_id',
        providerId: 'provider_id',
        accessToken: 'access_token',
        refreshToken: 'refresh_token',
        idToken: 'id_token',
        accessTokenExpiresAt: 'access_token_expires_at',
        refreshTokenExpiresAt: 'refresh_token_expires_at',
        ...timestamps,
      },
    },
    verification: { modelName: 'verifications', fields: { expiresAt: 'expires_at', ...timestamps } },
    emailAndPassword: {
      enabled: true,
      requireEmailVerification: true,
      minPasswordLength: 8,
      maxPasswordLength: 128,
      revokeSessionsOnPasswordReset: true,
      // Our own hash, and once per imported account the old Firebase site's (decision 0023).
      password: passwordChecks({
        replace: store.replacePasswordHash,
        // The account, never the password. Many of these soon after an import: its hash parameters were wrong.
        refused: async (hash) =>
          logger.warn(
            { userId: await store.userOfPasswordHash(hash) },
            'login refused: the password does not match the account’s imported Firebase hash',
          ),
      }),
      // Long enough for a staff invitation, which uses the same link (see sendResetPassword).
      resetPasswordTokenExpiresIn: day,
      // better-auth answers a sign-up with a taken address as if it were new (no account enumeration);
      // the owner is told by e-mail instead, so a forgotten account is not a dead end.
      async onExistingUserSignUp({ user }) {
        await outbox.enqueue({
          kind: 'account-exists',
          to: user.email,
          toName: user.name,
          ...accountExistsEmail(user.name, env.publicUrl),
        });
      },
      async sendResetPassword({ user, url }) {
        const providers = await store.loginProviders(user.id);
        if (providers.includes('credential')) {
          await outbox.enqueue({
            kind: 'password-reset',
            to: user.email,
            toName: user.name,
            ...passwordResetEmail(user.name, url),
          });
          return;
        }
        // No password yet: the link opens "Set a password" rather than "choose a new one". Someone who logs
        // in with Google (an account from the old site, say) asked for it on the login page: a reset of their
        // own, not the staff invitation that an account with no login at all is sent (`staff add`).
        const link = new URL(url);
        const withGoogle = providers.length > 0;
        link.searchParams.set('callbackURL', `${env.publicUrl}/change-password?${withGoogle ? 'set' : 'invited'}=1`);
        await outbox.enqueue({
          kind: withGoogle ? 'password-reset' : 'invitation',
          to: user.email,
          toName: user.name,
          ...(withGoogle ? firstPasswordEmail : staffInvitationEmail)(user.name, link.toString()),
        });
      },
      // A reset link proves the address and sets a password its owner chose: the account is theirs, verified,
      // and the other reset (or invitation) links still out there stop working.
      async onPasswordReset({ user }) {
        // Not a transaction: better-auth may call this inside one of its own, and on SQLite (one connection)
        // a second one would wait for it forever. Both statements can be repeated safely.
        await store.forgetResetLinks(user.id);
        await store.markVerified(user.id);
      },
    },
    emailVerification: {
      sendOnSignUp: true,
      // A refused login sends nothing by itself: the app offers "send the link again" instead, and says so.
      sendOnSignIn: false,
      expiresIn: day,
      async sendVerificationEmail({ user, url }) {
        // At most one a minute to an address, however many clients ask: nobody's inbox can be flooded.
        if (await store.verificationSentSince(user.email, new Date(Date.now() - verificationCooldownMs))) return;
        await outbox.enqueue({
          kind: 'verification',
          to: user.email,
          toName: user.name,
          ...verificationEmail(user.name, url),
        });
        // Spec §4: the verification e-mail, then the welcome e-mail, once per account.
        await queueWelcome(user);
      },
    },
    socialProviders: env.google
      ? { google: { clientId: env.google.clientId, clientSecret: env.google.clientSecret } }
      : {},
    databaseHooks: {
      session: {
        // Every way a session ends (sign-out, a changed or reset password, an expired one found) goes through
        // here after its commit: the streams it opened must stop hearing that user's notices, and every process's
        // copy of it must go before the answer does (docs/decisions/0040).
        delete: { after: (session) => publishAccessChange(events, session.userId) },
      },
      user: {
        // Its address verified, say: what a server keeps of its sessions (auth/session-cache.ts) is out of date.
        update: { after: (user) => publishAccessChange(events, user.id) },
        create: {
          // Google accounts arrive verified and get no verification e-mail; welcome them here.
          after: async (user) => {
            if (user.emailVerified) await queueWelcome(user);
          },
        },
      },
    },
    hooks: {
      after: createAuthMiddleware(async (ctx) => {
        // A changed password ends the reset links too, as a reset does (onPasswordReset).
        if (ctx.path !== '/change-password' || isAPIError(ctx.context.returned)) return;
        const userId = ctx.context.session?.user.id;
        if (userId) await store.forgetResetLinks(userId);
      }),
    },
    rateLimit: {
      enabled: env.rateLimit,
      storage: 'database',
      modelName: 'rate_limits',
      fields: { lastRequest: 'last_request' },
      window: 60,
      max: 100,
      customRules: {
        '/sign-in/email': { window: 60, max: 5 },
        '/sign-up/email': { window: 60, max: 5 },
        '/request-password-reset': { window: 60, max: 3 },
        '/reset-password': { window: 60, max: 5 },
        // A stolen session must not be able to guess the current password.
        '/change-password': { window: 60, max: 5 },
        '/send-verification-email': { window: 60, max: 3 },
      },
    },
    advanced: {
      // Said explicitly: left unset, better-auth turns its origin, CSRF and callback-URL checks off whenever
      // NODE_ENV=test or TEST is set in the process (Vitest sets both), so tests would not see the real server.
      disableOriginCheck: false,
      disableCSRFCheck: false,
      ipAddress: { ipAddressHeaders: [clientIpHeader] },
      database: { generateId: () => crypto.randomUUID() },
      // Behind Firebase Hosting only a cookie named `__session` reaches the server; every other one is stripped
      // (docs/decisions/0038). So the session cookie has that name, without the `__Secure-` prefix better-auth
      // adds over https (which would rename it), and stays Secure there. Google sign-in's state cookie takes the
      // same name for the minutes of the round trip to Google, when there is no session to keep: the callback
      // expires it, then sets the session in its place (one after the other, in that order).
      useSecureCookies: false,
      defaultCookieAttributes: { secure: env.publicUrl.startsWith('https://') },
      cookies: { session_token: { name: '__session' }, state: { name: '__session' } },
    },
    telemetry: { enabled: false },
  } satisfies BetterAuthOptions;
}

/** The AuthStore of the SQL engines: the same statements as before there was a Firestore one. */
export function sqlAuthStore(db: Db): AuthStore {
  return {
    loginProviders: (userId) => loginProviders(db, userId),
    forgetResetLinks: (userId) => forgetResetLinks(db, userId),
    async markVerified(userId) {
      await db.updateTable('users').set({ email_verified: true }).where('id', '=', userId).execute();
    },
    replacePasswordHash: (oldHash, newHash) => replaceFirebaseHash(db, oldHash, newHash),
    userOfPasswordHash: (hash) => userOfPasswordHash(db, hash),
    verificationSentSince: (to, since) => verificationSentSince(db, to, since),
  };
}

const loginProviders = async (db: Db, userId: string) =>
  (await db.selectFrom('accounts').select('provider_id').where('user_id', '=', userId).execute()).map(
    (row) => row.provider_id,
  );

/** Every outstanding reset (or invitation) link of a user: better-auth keeps them as `reset-password:<token>`. */
export async function forgetResetLinks(db: Db, userId: string): Promise<void> {
  await db
    .deleteFrom('verifications')
    .where('identifier', 'like', 'reset-password:%')
    .where('value', '=', userId)
    .execute();
}

async function verificationSentSince(db: Db, to: string, since: Date): Promise<boolean> {
  const row = await db
    .selectFrom('email_outbox')
    .select('id')
    .where('to_address', '=', to)
    .where('kind', '=', 'verification')
    .where('created_at', '>', since.toISOString())
    .executeTakeFirst();
  return row !== undefined;
}
