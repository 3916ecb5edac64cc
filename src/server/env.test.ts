import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { loadEnv, resolveAuthSecret, settingNames } from './env.ts';
import { newVapidKeysEnv } from './push/vapid.ts';

/** Production does not start without a VAPID pair (web push): the tests of its other rules give one. */
const vapidKeys = newVapidKeysEnv();

describe('loadEnv', () => {
  test('an empty environment gets the documented defaults', () => {
    const env = loadEnv({});
    expect(env).toMatchObject({
      production: false,
      test: false,
      port: 3000,
      host: '127.0.0.1',
      dataDir: path.resolve('data'),
      databaseUrl: `file:${path.resolve('data', 'app.db')}`,
      publicUrl: 'http://localhost:3000',
      authSecret: undefined,
      smtpUrl: undefined,
      mailFrom: 'TutorBook <no-reply@tutorbook.co.za>',
      google: undefined,
      bookingMinLeadHours: 48,
      bookingRescheduleMinHours: 24,
      paymentEftDetails: undefined,
      vatNumber: undefined,
      trustedProxies: 0,
      logLevel: 'info',
      rateLimit: false,
    });
  });

  test('reads the values given, and treats empty strings as unset', () => {
    const env = loadEnv({
      NODE_ENV: 'test',
      PORT: '8080',
      HOST: '0.0.0.0',
      DATA_DIR: '/srv/tutorbook',
      DATABASE_URL: 'postgres://u:p@db:5432/tutorbook',
      PUBLIC_URL: 'https://tutorbook.co.za/',
      SMTP_URL: 'smtps://user:pass@smtp.example.com',
      GOOGLE_CLIENT_ID: 'id',
      GOOGLE_CLIENT_SECRET: 'secret',
      BOOKING_MIN_LEAD_HOURS: '24',
      BOOKING_RESCHEDULE_MIN_HOURS: '12',
      TRUST_PROXY: 'yes',
      RATE_LIMIT: '1',
      LOG_LEVEL: 'warn',
      MAIL_FROM: '',
    });
    expect(env).toMatchObject({
      test: true,
      port: 8080,
      host: '0.0.0.0',
      dataDir: '/srv/tutorbook',
      databaseUrl: 'postgres://u:p@db:5432/tutorbook',
      publicUrl: 'https://tutorbook.co.za',
      smtpUrl: 'smtps://user:pass@smtp.example.com',
      mailFrom: 'TutorBook <no-reply@tutorbook.co.za>',
      google: { clientId: 'id', clientSecret: 'secret' },
      bookingMinLeadHours: 24,
      bookingRescheduleMinHours: 12,
      trustedProxies: 1,
      rateLimit: true,
      logLevel: 'warn',
    });
    expect(loadEnv({ PORT: '' }).port).toBe(3000);
  });

  test.each([
    ['1', 1],
    ['2', 2],
    ['5', 5],
    ['on', 1],
    ['true', 1],
    ['yes', 1],
    ['0', 0],
    ['off', 0],
    ['no', 0],
    ['', 0],
  ])('TRUST_PROXY=%j trusts %i proxies', (value, expected) => {
    expect(loadEnv({ TRUST_PROXY: value }).trustedProxies).toBe(expected);
  });

  test('the EFT details are one line per `;` or new line, blank ones dropped', () => {
    const env = loadEnv({
      PAYMENT_EFT_DETAILS:
        'Bank: FNB; Account name: TutorBook (Pty) Ltd;\n Account number: 62 1234 5678 ;; Branch code: 250655',
    });
    expect(env.paymentEftDetails).toEqual([
      'Bank: FNB',
      'Account name: TutorBook (Pty) Ltd',
      'Account number: 62 1234 5678',
      'Branch code: 250655',
    ]);
    expect(loadEnv({ PAYMENT_EFT_DETAILS: ' ; ' }).paymentEftDetails).toBeUndefined();
  });

  test('a VAT number is ten digits starting with 4, spaces dropped; anything else stops the start', () => {
    expect(loadEnv({ VAT_NUMBER: '4123 456 789' }).vatNumber).toBe('4123456789');
    for (const wrong of ['123456789', '5123456789', '41234567890', 'VAT4123456789'])
      expect(() => loadEnv({ VAT_NUMBER: wrong }), wrong).toThrow(/VAT_NUMBER: a South African VAT number/);
  });

  test('PayFast: the three keys together or none, www.payfast.co.za unless told otherwise, https in production', () => {
    const keys = {
      PAYFAST_MERCHANT_ID: '10000100',
      PAYFAST_MERCHANT_KEY: '46f0cd694581a',
      PAYFAST_PASSPHRASE: ' jt7NOE43FZPn ',
    };
    expect(loadEnv({}).payfast).toBeUndefined();
    expect(loadEnv(keys).payfast).toEqual({
      merchantId: '10000100',
      merchantKey: '46f0cd694581a',
      passphrase: 'jt7NOE43FZPn',
      url: 'https://www.payfast.co.za',
    });
    expect(loadEnv({ ...keys, PAYFAST_URL: 'http://127.0.0.1:5066/' }).payfast?.url).toBe('http://127.0.0.1:5066');
    expect(() => loadEnv({ PAYFAST_MERCHANT_ID: '10000100', PAYFAST_MERCHANT_KEY: '46f0cd694581a' })).toThrow(
      /PAYFAST_MERCHANT_ID, PAYFAST_MERCHANT_KEY: PayFast needs all of/,
    );
    expect(() => loadEnv({ ...keys, PAYFAST_MERCHANT_ID: 'abc' })).toThrow(/PAYFAST_MERCHANT_ID: digits/);
    const production = {
      ...keys,
      NODE_ENV: 'production',
      AUTH_SECRET: 'x'.repeat(32),
      ...vapidKeys,
      PUBLIC_URL: 'https://tutorbook.co.za',
      PAYMENT_EFT_DETAILS: 'Bank: FNB',
    };
    expect(loadEnv(production).payfast?.url).toBe('https://www.payfast.co.za');
    expect(() => loadEnv({ ...production, PAYFAST_URL: 'http://127.0.0.1:5066' })).toThrow(
      /PAYFAST_URL: must be https:\/\/ in production/,
    );
  });

  const whatsAppKeys = {
    WHATSAPP_TOKEN: 'EAAG-system-user-token',
    WHATSAPP_PHONE_NUMBER_ID: '106540352242922',
    WHATSAPP_APP_SECRET: 'app-secret',
    WHATSAPP_VERIFY_TOKEN: 'verify-me',
  };

  test('WhatsApp: the four keys together or none, Graph API v21.0 and `en` unless told otherwise', () => {
    expect(loadEnv({}).whatsapp).toBeUndefined();
    expect(loadEnv(whatsAppKeys).whatsapp).toEqual({
      token: 'EAAG-system-user-token',
      phoneNumberId: '106540352242922',
      appSecret: 'app-secret',
      verifyToken: 'verify-me',
      apiUrl: 'https://graph.facebook.com/v21.0',
      templateLanguage: 'en',
    });
    const told = loadEnv({
      ...whatsAppKeys,
      WHATSAPP_API_URL: 'http://127.0.0.1:4371/',
      WHATSAPP_TEMPLATE_LANGUAGE: 'en_US',
    }).whatsapp;
    expect(told).toMatchObject({ apiUrl: 'http://127.0.0.1:4371', templateLanguage: 'en_US' });
    // Empty values are unset: all four empty is WhatsApp off, not an error.
    expect(
      loadEnv({ WHATSAPP_TOKEN: '', WHATSAPP_PHONE_NUMBER_ID: '', WHATSAPP_APP_SECRET: '', WHATSAPP_VERIFY_TOKEN: '' })
        .whatsapp,
    ).toBeUndefined();
  });

  test.each([
    ['WHATSAPP_APP_SECRET, WHATSAPP_VERIFY_TOKEN: missing', { WHATSAPP_TOKEN: 't', WHATSAPP_PHONE_NUMBER_ID: '1' }],
    ['WHATSAPP_TOKEN: missing', { ...whatsAppKeys, WHATSAPP_TOKEN: '' }],
    ['WHATSAPP_TOKEN, WHATSAPP_PHONE_NUMBER_ID, WHATSAPP_APP_SECRET: missing', { WHATSAPP_VERIFY_TOKEN: 'verify-me' }],
    ['WHATSAPP_PHONE_NUMBER_ID: digits', { ...whatsAppKeys, WHATSAPP_PHONE_NUMBER_ID: '+27 82 123 4567' }],
    ['WHATSAPP_API_URL', { ...whatsAppKeys, WHATSAPP_API_URL: 'graph.facebook.com' }],
    ['WHATSAPP_TEMPLATE_LANGUAGE', { ...whatsAppKeys, WHATSAPP_TEMPLATE_LANGUAGE: 'English' }],
  ])('WhatsApp: %s is refused at start with a message naming it', (name, source) => {
    expect(() => loadEnv(source)).toThrow(/^Invalid environment:\n/);
    expect(() => loadEnv(source)).toThrow(name);
  });

  test('WhatsApp: the API’s URL must be https in production', () => {
    const production = {
      ...whatsAppKeys,
      ...vapidKeys,
      NODE_ENV: 'production',
      AUTH_SECRET: 'x'.repeat(32),
      PUBLIC_URL: 'https://tutorbook.co.za',
      PAYMENT_EFT_DETAILS: 'Bank: FNB',
    };
    expect(loadEnv(production).whatsapp?.apiUrl).toBe('https://graph.facebook.com/v21.0');
    expect(() => loadEnv({ ...production, WHATSAPP_API_URL: 'http://127.0.0.1:4371' })).toThrow(
      'Invalid environment:\n  WHATSAPP_API_URL: must be https:// in production',
    );
  });

  const emailJsKeys = {
    EMAILJS_SERVICE_ID: 'service_tb',
    EMAILJS_TEMPLATE_ID: 'template_all',
    EMAILJS_PUBLIC_KEY: 'public-key',
    EMAILJS_PRIVATE_KEY: 'private-key',
  };

  test('EmailJS: the four keys together, a template per kind, api.emailjs.com unless told otherwise', () => {
    expect(loadEnv({}).emailJs).toBeUndefined();
    expect(
      loadEnv({ ...emailJsKeys, EMAILJS_TEMPLATES: 'verification=template_verify, booking-confirmed = template_ok' })
        .emailJs,
    ).toEqual({
      apiUrl: 'https://api.emailjs.com',
      serviceId: 'service_tb',
      templateId: 'template_all',
      publicKey: 'public-key',
      privateKey: 'private-key',
      templates: { verification: 'template_verify', 'booking-confirmed': 'template_ok' },
    });
    expect(loadEnv({ ...emailJsKeys, EMAILJS_API_URL: 'http://127.0.0.1:9' }).emailJs?.apiUrl).toBe(
      'http://127.0.0.1:9',
    );
  });

  test.each([
    ['SMTP_URL and EMAILJS_', { ...emailJsKeys, SMTP_URL: 'smtp://127.0.0.1:25' }],
    ['EMAILJS_PRIVATE_KEY', { ...emailJsKeys, EMAILJS_PRIVATE_KEY: '' }],
    ['EMAILJS_SERVICE_ID, EMAILJS_TEMPLATE_ID', { EMAILJS_PUBLIC_KEY: 'k', EMAILJS_PRIVATE_KEY: 'p' }],
    ['EMAILJS_TEMPLATES', { EMAILJS_TEMPLATES: 'welcome=template_hi' }],
    ['EMAILJS_TEMPLATES: "bookng-request=t"', { ...emailJsKeys, EMAILJS_TEMPLATES: 'bookng-request=t' }],
    ['EMAILJS_TEMPLATES: "welcome"', { ...emailJsKeys, EMAILJS_TEMPLATES: 'welcome' }],
    ['EMAILJS_API_URL', { ...emailJsKeys, EMAILJS_API_URL: 'api.emailjs.com' }],
  ])('EmailJS: %s is refused at start with a message naming it', (name, source) => {
    expect(() => loadEnv(source)).toThrow(/^Invalid environment:\n/);
    expect(() => loadEnv(source)).toThrow(name);
  });

  test('production requires AUTH_SECRET and always rate-limits', () => {
    expect(() => loadEnv({ NODE_ENV: 'production' })).toThrow(/AUTH_SECRET: required in production/);
    const env = loadEnv({
      NODE_ENV: 'production',
      AUTH_SECRET: 's'.repeat(32),
      ...vapidKeys,
      RATE_LIMIT: 'off',
      PAYMENT_EFT_DETAILS: 'Bank: FNB',
    });
    expect(env.production).toBe(true);
    expect(env.rateLimit).toBe(true);
  });

  test('production refuses a PUBLIC_URL that is not https, unless it is this machine', () => {
    const production = {
      NODE_ENV: 'production',
      AUTH_SECRET: 's'.repeat(32),
      PAYMENT_EFT_DETAILS: 'Bank: FNB',
      ...vapidKeys,
    };
    for (const url of ['http://tutorbook.co.za', 'http://10.0.0.5:3000', 'ftp://tutorbook.co.za']) {
      expect(() => loadEnv({ ...production, PUBLIC_URL: url }), url).toThrow(
        'Invalid environment:\n  PUBLIC_URL: must be https:// in production (http:// only on localhost)',
      );
    }
    for (const url of [
      'https://tutorbook.co.za',
      'http://localhost:3000',
      'http://127.0.0.1:8080',
      'http://[::1]:3000',
    ]) {
      expect(loadEnv({ ...production, PUBLIC_URL: url }).publicUrl, url).toBe(url);
    }
    // Left unset, it is http://localhost:$PORT.
    expect(loadEnv(production).publicUrl).toBe('http://localhost:3000');
    // Outside production, any address will do (a phone on the local network, say).
    expect(loadEnv({ PUBLIC_URL: 'http://192.168.1.20:3000' }).publicUrl).toBe('http://192.168.1.20:3000');
  });

  test('production refuses to start without the bank details students pay into, naming the variable', () => {
    const production = { NODE_ENV: 'production', AUTH_SECRET: 's'.repeat(32), ...vapidKeys };
    for (const details of [undefined, '', ' ; '])
      expect(() => loadEnv({ ...production, PAYMENT_EFT_DETAILS: details })).toThrow(
        /PAYMENT_EFT_DETAILS: required in production/,
      );
    expect(loadEnv({ ...production, PAYMENT_EFT_DETAILS: 'Bank: FNB' }).paymentEftDetails).toEqual(['Bank: FNB']);
    // Development and tests start without them (the server warns; the e-mails say whom to ask).
    expect(loadEnv({}).paymentEftDetails).toBeUndefined();
  });

  test.each([
    ['PORT', { PORT: 'eighty' }],
    ['PORT', { PORT: '70000' }],
    ['PORT', { PORT: '80.5' }],
    ['NODE_ENV', { NODE_ENV: 'staging' }],
    ['PUBLIC_URL', { PUBLIC_URL: 'tutorbook.co.za' }],
    ['AUTH_SECRET', { AUTH_SECRET: 'too-short' }],
    ['SMTP_URL', { SMTP_URL: 'not a url' }],
    ['LOG_LEVEL', { LOG_LEVEL: 'loud' }],
    ['TRUST_PROXY', { TRUST_PROXY: 'maybe' }],
    ['TRUST_PROXY', { TRUST_PROXY: '6' }],
    ['TRUST_PROXY', { TRUST_PROXY: '-1' }],
    ['TRUST_PROXY', { TRUST_PROXY: '1.5' }],
    ['RATE_LIMIT', { RATE_LIMIT: 'sometimes' }],
    ['BOOKING_MIN_LEAD_HOURS', { BOOKING_MIN_LEAD_HOURS: '-1' }],
    ['DATABASE_URL', { DATABASE_URL: 'mysql://localhost/tutorbook' }],
    ['DATABASE_URL', { DATABASE_URL: 'firestore://' }],
    ['DATABASE_URL', { DATABASE_URL: 'firestore://Demo-TutorBook' }],
    ['DATABASE_URL', { DATABASE_URL: 'firestore://demo' }],
    ['DATABASE_URL', { DATABASE_URL: 'firestore://demo-tutorbook/Tutorbook' }],
    ['DATABASE_URL', { DATABASE_URL: 'firestore://demo-tutorbook/tb' }],
    ['DATABASE_URL', { DATABASE_URL: 'firestore://demo-tutorbook/tutorbook/extra' }],
    ['GOOGLE_CLIENT_ID', { GOOGLE_CLIENT_ID: 'only-the-id' }],
    ['GOOGLE_CLIENT_SECRET', { GOOGLE_CLIENT_SECRET: 'only-the-secret' }],
  ])('a bad %s stops start-up with a message naming it', (name, source) => {
    expect(() => loadEnv(source)).toThrow(/^Invalid environment:\n/);
    expect(() => loadEnv(source)).toThrow(name);
  });

  test('firestore://<project-id> names the Firestore engine and its project; SQL URLs name none', () => {
    expect(loadEnv({ DATABASE_URL: 'firestore://demo-tutorbook' })).toMatchObject({
      databaseUrl: 'firestore://demo-tutorbook',
      firestoreProjectId: 'demo-tutorbook',
    });
    expect(loadEnv({ DATABASE_URL: 'firestore://tutorbook-za-2026/' }).firestoreProjectId).toBe('tutorbook-za-2026');
    expect(
      loadEnv({ DATABASE_URL: 'firestore://demo-tutorbook', FIRESTORE_EMULATOR_HOST: '127.0.0.1:8080' }),
    ).toMatchObject({ firestoreProjectId: 'demo-tutorbook', firestoreEmulatorHost: '127.0.0.1:8080' });
    expect(loadEnv({ DATABASE_URL: 'postgres://u:p@db/tutorbook' }).firestoreProjectId).toBeUndefined();
    expect(loadEnv({}).firestoreProjectId).toBeUndefined();
    expect(() => loadEnv({ DATABASE_URL: 'firestore://Demo-TutorBook' })).toThrow(
      'the project id is 6 to 30 lowercase letters, digits and hyphens, starting with a letter (got "Demo-TutorBook")',
    );
  });

  test('firestore://<project-id>/<database-id> names a database of the project; the project alone is (default)', () => {
    expect(loadEnv({ DATABASE_URL: 'firestore://demo-tutorbook/tutorbook' })).toMatchObject({
      firestoreProjectId: 'demo-tutorbook',
      firestoreDatabaseId: 'tutorbook',
    });
    expect(loadEnv({ DATABASE_URL: 'firestore://demo-tutorbook/new-site-2026/' }).firestoreDatabaseId).toBe(
      'new-site-2026',
    );
    expect(loadEnv({ DATABASE_URL: 'firestore://demo-tutorbook' }).firestoreDatabaseId).toBe('(default)');
    expect(loadEnv({ DATABASE_URL: 'firestore://demo-tutorbook/(default)' }).firestoreDatabaseId).toBe('(default)');
    expect(loadEnv({ DATABASE_URL: 'file:./data/app.db' }).firestoreDatabaseId).toBeUndefined();
    // Firestore's own rule (4 to 63 characters, lowercase, a letter first, not a UUID), which the emulator
    // does not check.
    for (const bad of ['Tutorbook', 'tb', 'tutor_book', '1tutorbook', 'tutorbook-', 'a'.repeat(64)])
      expect(() => loadEnv({ DATABASE_URL: `firestore://demo-tutorbook/${bad}` })).toThrow(
        `the database id is 4 to 63 lowercase letters, digits and hyphens, starting with a letter and ending with a letter or digit, or (default) (got "${bad}")`,
      );
    expect(() => loadEnv({ DATABASE_URL: 'firestore://demo-tutorbook/f47ac10b-58cc-0372-8567-0e02b2c3d479' })).toThrow(
      'DATABASE_URL',
    );
    expect(loadEnv({ DATABASE_URL: `firestore://demo-tutorbook/${'a'.repeat(63)}` }).firestoreDatabaseId).toHaveLength(
      63,
    );
  });

  // --- Web push (issue 38 §2): the VAPID keys and subject (push/vapid.ts).
  test('web push: the VAPID pair from the environment, the business’s address as subject unless told otherwise', () => {
    expect(loadEnv({}).vapid).toEqual({ subject: 'mailto:hello@tutorbook.co.za' });
    expect(loadEnv(vapidKeys).vapid).toEqual({
      subject: 'mailto:hello@tutorbook.co.za',
      keys: { publicKey: vapidKeys.VAPID_PUBLIC_KEY, privateKey: vapidKeys.VAPID_PRIVATE_KEY },
    });
    for (const subject of ['mailto:bookings@tutorbook.co.za', 'https://tutorbook.co.za/contact'])
      expect(loadEnv({ ...vapidKeys, VAPID_SUBJECT: subject }).vapid.subject).toBe(subject);
  });

  test('web push: one key of the pair alone stops the start, naming the one that is missing', () => {
    expect(() => loadEnv({ VAPID_PUBLIC_KEY: vapidKeys.VAPID_PUBLIC_KEY })).toThrow(
      'Invalid environment:\n  VAPID_PUBLIC_KEY: set without VAPID_PRIVATE_KEY: web push needs both keys of the pair, or neither',
    );
    expect(() => loadEnv({ VAPID_PRIVATE_KEY: vapidKeys.VAPID_PRIVATE_KEY })).toThrow(
      'Invalid environment:\n  VAPID_PRIVATE_KEY: set without VAPID_PUBLIC_KEY: web push needs both keys of the pair, or neither',
    );
  });

  test('web push: keys of another pair stop the start (every push would be refused)', () => {
    const other = newVapidKeysEnv();
    expect(() => loadEnv({ ...vapidKeys, VAPID_PRIVATE_KEY: other.VAPID_PRIVATE_KEY })).toThrow(
      'Invalid environment:\n  VAPID_PRIVATE_KEY: not the private key of VAPID_PUBLIC_KEY',
    );
  });

  test('web push: production requires the pair', () => {
    const production = { NODE_ENV: 'production', AUTH_SECRET: 's'.repeat(32), PAYMENT_EFT_DETAILS: 'Bank: FNB' };
    expect(() => loadEnv(production)).toThrow(
      /^Invalid environment:\n {2}VAPID_PUBLIC_KEY, VAPID_PRIVATE_KEY: required in production \(make a pair once with `npx web-push generate-vapid-keys`/,
    );
    expect(loadEnv({ ...production, ...vapidKeys }).vapid.keys?.publicKey).toBe(vapidKeys.VAPID_PUBLIC_KEY);
  });

  test.each([
    ['VAPID_PUBLIC_KEY', { ...vapidKeys, VAPID_PUBLIC_KEY: vapidKeys.VAPID_PUBLIC_KEY.slice(0, -2) }],
    ['VAPID_PUBLIC_KEY', { ...vapidKeys, VAPID_PUBLIC_KEY: `${vapidKeys.VAPID_PUBLIC_KEY}=` }],
    ['VAPID_PUBLIC_KEY', { ...vapidKeys, VAPID_PUBLIC_KEY: Buffer.alloc(65, 5).toString('base64url') }],
    ['VAPID_PRIVATE_KEY', { ...vapidKeys, VAPID_PRIVATE_KEY: Buffer.alloc(31, 1).toString('base64url') }],
    ['VAPID_PRIVATE_KEY', { ...vapidKeys, VAPID_PRIVATE_KEY: vapidKeys.VAPID_PRIVATE_KEY.replace(/.$/, '+') }],
    ['VAPID_SUBJECT', { VAPID_SUBJECT: 'hello@tutorbook.co.za' }],
    ['VAPID_SUBJECT', { VAPID_SUBJECT: 'http://tutorbook.co.za' }],
    ['VAPID_SUBJECT', { VAPID_SUBJECT: 'mailto:nobody' }],
  ])('web push: a bad %s stops start-up with a message naming it', (name, source) => {
    expect(() => loadEnv(source)).toThrow(/^Invalid environment:\n/);
    expect(() => loadEnv(source)).toThrow(`  ${name}: `);
  });
  // --- end of web push.

  test('all problems are reported at once', () => {
    expect(() => loadEnv({ PORT: 'x', LOG_LEVEL: 'loud' })).toThrow(/PORT[\s\S]*LOG_LEVEL|LOG_LEVEL[\s\S]*PORT/);
  });
});

describe('resolveAuthSecret', () => {
  test('outside production a secret is generated once into the data folder and reused', async () => {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'tutorbook-env-'));
    try {
      const env = loadEnv({ DATA_DIR: path.join(dataDir, 'nested') });
      const first = resolveAuthSecret(env);
      expect(first.length).toBeGreaterThanOrEqual(32);
      expect(resolveAuthSecret(env)).toBe(first);
      const file = path.join(dataDir, 'nested', 'auth-secret');
      expect(await readFile(file, 'utf8')).toBe(first);
      expect((await stat(file)).mode & 0o777).toBe(0o600);
      // A given AUTH_SECRET wins over the file.
      expect(resolveAuthSecret(loadEnv({ DATA_DIR: env.dataDir, AUTH_SECRET: 'x'.repeat(40) }))).toBe('x'.repeat(40));
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});

test('.env.example and docs/configuration.md name every setting the server reads, and nothing else', async () => {
  const example = await readFile('.env.example', 'utf8');
  const inExample = [...example.matchAll(/^# ([A-Z][A-Z0-9_]*)=/gm)].map((match) => match[1]);
  expect(new Set(inExample)).toEqual(new Set(settingNames));
  const page = await readFile('docs/configuration.md', 'utf8');
  for (const name of settingNames) expect(page, name).toContain(`\`${name}\``);
});
