/**
 * The new site's Firestore data is closed to browsers, and no deploy can touch the old site's rules
 * (docs/deploy-to-firebase.md). The new data lives in a named database of the old project (`tutorbook`); the old
 * site keeps `(default)`, whose rules its pages depend on.
 *
 * 1. firebase.json declares rules for named databases only: the Firebase CLI's own code (its schema, and the
 *    database list a deploy works on, `getFirestoreConfig`) is asked what `firebase deploy` with each `--only`
 *    would write, and `(default)` must never be among it.
 * 2. Google's Firestore emulator loads each declared database's rules, and requests made as a browser would make
 *    them (Firestore's REST API, without a token and with a signed-in Firebase user's) read, list, query, create,
 *    update and delete documents there: every one must be refused with 403. The same requests against rules that
 *    let signed-in users in must get through, or the check could not tell.
 *
 *   npm ci --prefix deploy/firebase-tools && node scripts/check-firestore-rules.ts
 *
 * Needs Node, the Firebase CLI in deploy/firebase-tools and the emulator (`gcloud emulators firestore`): CI runs
 * it after `npm prune --omit=dev`.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { startOwnFirestoreEmulator } from '../src/server/test/firestore-emulator.ts';

interface DatabaseRules {
  database?: string;
  target?: string;
  rules?: string;
  indexes?: string;
}

const cli = path.resolve('deploy/firebase-tools/node_modules/firebase-tools/lib');
const require = createRequire(import.meta.url);
const { getFirestoreConfig } = require(path.join(cli, 'firestore/fsConfig.js')) as {
  getFirestoreConfig(
    projectId: string,
    options: { config: { src: unknown }; only?: string; rc?: unknown },
  ): {
    database: string;
    rules?: string;
  }[];
};
const { getValidator, getErrorMessage } = require(path.join(cli, 'firebaseConfigValidate.js')) as {
  getValidator(): ((data: unknown) => boolean) & { errors?: unknown[] | null };
  getErrorMessage(error: unknown): string;
};

const firebaseJson = JSON.parse(readFileSync('firebase.json', 'utf8')) as { firestore?: unknown };
const problems: string[] = [];

// 1. What each deploy would write.
const validate = getValidator();
if (!validate(firebaseJson)) for (const error of validate.errors ?? []) problems.push(getErrorMessage(error));
const declared: DatabaseRules[] = Array.isArray(firebaseJson.firestore)
  ? (firebaseJson.firestore as DatabaseRules[])
  : [];
if (!Array.isArray(firebaseJson.firestore)) {
  problems.push(
    'firebase.json: "firestore" must be a list of named databases ([{ "database": "tutorbook", … }]): the single ' +
      "form means (default), the old site's database",
  );
}
for (const entry of declared) {
  if (entry.target) problems.push(`firebase.json: firestore target "${entry.target}": name the database itself`);
  if (!entry.database || entry.database === '(default)')
    problems.push(`firebase.json: a firestore entry for the old site's (default) database: ${JSON.stringify(entry)}`);
}
const deploys = [undefined, 'firestore', 'firestore:rules', 'firestore:indexes', 'hosting', 'hosting,firestore'];
for (const entry of declared) if (entry.database) deploys.push(`firestore:${entry.database}`);
for (const only of deploys) {
  const command = `firebase deploy${only ? ` --only ${only}` : ''}`;
  // The CLI prepares Firestore only when a deploy includes it.
  if (only && !only.split(',').some((target) => target === 'firestore' || target.startsWith('firestore:'))) {
    console.log(`${command}: no Firestore rules or indexes`);
    continue;
  }
  let written: string[];
  try {
    written = getFirestoreConfig('demo-check', { config: { src: firebaseJson }, only }).map((c) => c.database);
  } catch (error) {
    problems.push(`${command}: ${error instanceof Error ? error.message : String(error)}`);
    continue;
  }
  console.log(`${command}: Firestore rules and indexes of ${written.join(', ') || 'no database'}`);
  if (written.includes('(default)')) problems.push(`${command} would replace the old site's (default) rules`);
}

// 2. The rules in force, as a browser meets them.
const emulator = await startOwnFirestoreEmulator();
try {
  const base = `http://${emulator.host}`;
  const openRules = `rules_version = '2';
service cloud.firestore {
  match /databases/{database}/documents {
    match /{document=**} { allow read, write: if request.auth != null; }
  }
}`;
  // A control first: rules that let signed-in users in, which the probes must get through.
  const control = await probe(base, 'demo-rules-control', 'tutorbook', openRules);
  const through = control.filter((result) => result.who === 'a signed-in user' && result.status !== 403);
  if (through.length !== control.filter((result) => result.who === 'a signed-in user').length)
    problems.push(
      'the probes were refused by rules that let signed-in users in: the check cannot tell open from closed',
    );
  for (const entry of declared) {
    if (!entry.database || !entry.rules) continue;
    const results = await probe(base, 'demo-rules-check', entry.database, readFileSync(entry.rules, 'utf8'));
    const refused = results.filter((result) => result.status === 403).length;
    console.log(`${entry.rules} on ${entry.database}: ${refused} of ${results.length} browser requests refused (403)`);
    for (const result of results) {
      if (result.status !== 403)
        problems.push(`${entry.database}: ${result.what} as ${result.who} answered ${result.status}, not 403`);
    }
  }
} finally {
  await emulator.stop();
}

if (problems.length) {
  console.log(`\n${problems.join('\n')}`);
  process.exit(1);
}
console.log('\nNo deploy touches (default), and the new data refuses every browser request.');

/** Loads `rules` for one database of `project`, then asks what browsers may do there. */
async function probe(base: string, project: string, database: string, rules: string) {
  const loaded = await fetch(`${base}/emulator/v1/projects/${project}/databases/${database}:securityRules`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ rules: { files: [{ name: 'firestore.rules', content: rules }] } }),
  });
  if (!loaded.ok) throw new Error(`the emulator refused the rules for ${database}: ${await loaded.text()}`);
  const documents = `${base}/v1/projects/${project}/databases/${database}/documents`;
  const fields = JSON.stringify({ fields: { name: { stringValue: 'x' } } });
  const requests: [string, string, RequestInit][] = [];
  // What the new site keeps there: accounts, sessions, reset tokens and hashes among it, the testimonials the
  // admin hid, the tutors' availability, the calendar feeds' hashes, the payments, the monthly packages, the
  // notices with their push keys and WhatsApp numbers, and the board's photos (docs/firestore-layout.md).
  for (const collection of [
    'users',
    'sessions',
    'verifications',
    'testimonials',
    'availability',
    'calendarFeeds',
    'groupSessions',
    'payments',
    'paymentStatementLines',
    'bankMappings',
    'ignoredStatementLines',
    'packageOffers',
    'packages',
    'packagePaymentReferences',
    'notices',
    'noticeFollows',
    'noticePreferences',
    'pushSubscriptions',
    'noticeDeliveries',
    'postPhotos',
    'sessionOffers',
  ]) {
    requests.push(
      [`read ${collection}/a`, `${documents}/${collection}/a`, {}],
      [`list ${collection}`, `${documents}/${collection}`, {}],
      [`create ${collection}/b`, `${documents}/${collection}?documentId=b`, { method: 'POST', body: fields }],
      [`update ${collection}/a`, `${documents}/${collection}/a`, { method: 'PATCH', body: fields }],
      [`delete ${collection}/a`, `${documents}/${collection}/a`, { method: 'DELETE' }],
    );
  }
  requests.push([
    'query users',
    `${documents}:runQuery`,
    { method: 'POST', body: JSON.stringify({ structuredQuery: { from: [{ collectionId: 'users' }] } }) },
  ]);
  requests.push(['read questions/q/answers/a', `${documents}/questions/q/answers/a`, {}]);
  const people: [string, Record<string, string>][] = [
    ['a visitor', {}],
    ['a signed-in user', { authorization: `Bearer ${userToken(project)}` }],
  ];
  const results: { what: string; who: string; status: number }[] = [];
  for (const [who, headers] of people) {
    for (const [what, url, init] of requests) {
      const response = await fetch(url, { ...init, headers: { 'content-type': 'application/json', ...headers } });
      await response.body?.cancel();
      results.push({ what, who, status: response.status });
    }
  }
  return results;
}

/**
 * A Firebase Authentication ID token as the emulator takes it (unsigned): what any user signed in to the old
 * site's Firebase project has, and sends with the web SDK. Never `owner`, the emulator's way past the rules.
 */
function userToken(project: string): string {
  const part = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const now = Math.floor(Date.now() / 1000);
  return `${part({ alg: 'none', typ: 'JWT' })}.${part({
    iss: `https://securetoken.google.com/${project}`,
    aud: project,
    sub: 'old-site-user',
    user_id: 'old-site-user',
    iat: now,
    exp: now + 3600,
    auth_time: now,
    firebase: { sign_in_provider: 'password' },
  })}.`;
}
