/**
 * Firebase Hosting serves the built client as the Node server does (docs/decisions/0022): the same status,
 * caching and security headers for every page and file Hosting answers itself. Starts the server from the build
 * in production mode (as the container does: `node src/server/main.ts`) and Google's Hosting emulator over the
 * same `dist/client`, asks both for the same paths and stops at the first difference.
 *
 * Then the Hosting stand-in (scripts/hosting-standin.ts, docs/decisions/0038) in front of the same server: for
 * the static half it must answer as the emulator does (status, redirect, body, the headers compared), files
 * firebase.json ignores aside (never uploaded, so the stand-in sends the shell, where the emulator serves them);
 * its rewrites must reach the server, which the emulator's cannot (it answers 500).
 *
 *   npm run build && npm ci --prefix deploy/firebase-tools && node scripts/check-firebase-hosting.ts
 *
 * Runs after `npm prune --omit=dev` too (CI does): it needs nothing but Node and the Firebase CLI. Set
 * DATABASE_URL to start the server on PostgreSQL; a throwaway SQLite file otherwise.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync, readdirSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { newVapidKeysEnv } from '../src/server/push/vapid.ts';
import { readFirebaseJson, startHostingStandin } from './hosting-standin.ts';

const firebase = path.resolve('deploy/firebase-tools/node_modules/.bin/firebase');
const hostingPort = (JSON.parse(readFileSync('firebase.json', 'utf8')) as { emulators: { hosting: { port: number } } })
  .emulators.hosting.port;
/** The headers a browser acts on; `content-type` is Hosting's own choice and not compared. */
const compared = [
  'cache-control',
  'content-security-policy',
  'x-frame-options',
  'x-content-type-options',
  'referrer-policy',
  'permissions-policy',
  'strict-transport-security',
];

const assets = readdirSync('dist/client/assets');
const firstAsset = (pattern: RegExp) => `/assets/${assets.find((name) => pattern.test(name))!}`;
const paths = [
  '/',
  '/about',
  '/testimonials',
  '/privacy-policy',
  '/login',
  '/signup',
  '/index.html',
  '/shell.html',
  '/sw.js',
  '/manifest.webmanifest',
  '/favicon.svg',
  firstAsset(/^index-.*\.js$/),
  firstAsset(/\.css$/),
  // Pages without a build-time rendering: the app's shell on both (the signed-in pages and /qa go to Cloud Run).
  '/profile',
  '/booking',
  '/home',
];

const children: ChildProcess[] = [];
const stops: (() => Promise<void>)[] = [];
const dataDir = await mkdtemp(path.join(os.tmpdir(), 'tutorbook-hosting-'));
let failed = false;
try {
  const serverPort = await freePort();
  const server = `http://127.0.0.1:${serverPort}`;
  start(process.execPath, ['src/server/main.ts'], {
    NODE_ENV: 'production',
    HOST: '127.0.0.1',
    PORT: String(serverPort),
    PUBLIC_URL: 'https://tutorbook.example',
    AUTH_SECRET: randomBytes(32).toString('base64url'),
    ...newVapidKeysEnv(),
    DATA_DIR: dataDir,
    PAYMENT_EFT_DETAILS: 'Bank: FNB; Account number: 62 1234 5678; Branch code: 250655',
    LOG_LEVEL: 'warn',
  });
  const hosting = `http://127.0.0.1:${hostingPort}`;
  start(firebase, ['emulators:start', '--only', 'hosting', '--project', 'demo-tutorbook']);
  await answers(`${server}/api/health`, 'the server');
  await answers(`${hosting}/`, 'the Hosting emulator');
  console.log(`The server (production, from the build) answers /api/health; comparing ${paths.length} paths.`);

  for (const pathname of paths) {
    const [fromServer, fromHosting] = await Promise.all([fetch(server + pathname), fetch(hosting + pathname)]);
    const differences = compared
      .filter((name) => fromServer.headers.get(name) !== fromHosting.headers.get(name))
      .map((name) => `  ${name}: server ${show(fromServer, name)}, Hosting ${show(fromHosting, name)}`);
    if (fromServer.status !== fromHosting.status)
      differences.unshift(`  status: server ${fromServer.status}, Hosting ${fromHosting.status}`);
    if ((await fromServer.text()) !== (await fromHosting.text())) differences.push('  the bodies differ');
    console.log(`${differences.length ? '✗' : '✓'} ${pathname}`);
    if (differences.length) {
      console.log(differences.join('\n'));
      failed = true;
    }
  }

  // The one difference, said in the decision record: Hosting cannot answer 404 for an unknown page; it sends the
  // shell, and the app shows its own "not found" page.
  const unknown = await fetch(`${hosting}/no-such-page`);
  const shell = readFileSync('dist/client/shell.html', 'utf8');
  const unknownOk = unknown.status === 200 && (await unknown.text()) === shell;
  console.log(`${unknownOk ? '✓' : '✗'} /no-such-page: Hosting sends the shell (the server: 404 with the shell)`);
  failed ||= !unknownOk;

  const standin = await startHostingStandin({ config: readFirebaseJson().hosting, upstream: server });
  stops.push(() => standin.close());
  const standinPaths = [
    ...paths,
    '/no-such-page',
    // Hosting's redirects: cleanUrls, trailingSlash, a query kept, doubled and encoded slashes.
    '/about/',
    '/about.html',
    '/about.html?from=mail',
    '/index',
    '/login/',
    '/no-such-page/',
    '//about',
    '/ab%6fut',
    '/assets/',
  ];
  console.log(`\nThe Hosting stand-in against the emulator: ${standinPaths.length} paths.`);
  for (const pathname of standinPaths) {
    const [fromStandin, fromHosting] = await Promise.all([
      fetch(standin.url + pathname, { redirect: 'manual' }),
      fetch(hosting + pathname, { redirect: 'manual' }),
    ]);
    const differences = [...compared, 'location']
      .filter((name) => fromStandin.headers.get(name) !== fromHosting.headers.get(name))
      .map((name) => `  ${name}: stand-in ${show(fromStandin, name)}, Hosting ${show(fromHosting, name)}`);
    if (fromStandin.status !== fromHosting.status)
      differences.unshift(`  status: stand-in ${fromStandin.status}, Hosting ${fromHosting.status}`);
    if ((await fromStandin.text()) !== (await fromHosting.text())) differences.push('  the bodies differ');
    console.log(`${differences.length ? '✗' : '✓'} ${pathname}${fromStandin.status === 301 ? ' (301)' : ''}`);
    if (differences.length) {
      console.log(differences.join('\n'));
      failed = true;
    }
  }
  // Never uploaded: the stand-in falls through to the rewrites (the shell), as a deployed site does.
  for (const pathname of ['/lazy-chunks.json', '/about.html.br']) {
    const answer = await fetch(standin.url + pathname);
    const ok = answer.status === 200 && (await answer.text()) === shell;
    console.log(`${ok ? '✓' : '✗'} ${pathname}: ignored in firebase.json, the stand-in sends the shell`);
    failed ||= !ok;
  }
  // The rewrites reach the server, with what Hosting changes on the way.
  for (const pathname of ['/api/health', '/qa']) {
    const [fromStandin, fromServer] = await Promise.all([fetch(standin.url + pathname), fetch(server + pathname)]);
    const ok = fromStandin.status === fromServer.status && (await fromStandin.text()) === (await fromServer.text());
    console.log(`${ok ? '✓' : '✗'} ${pathname}: the stand-in sends it to the server (the emulator answers 500)`);
    failed ||= !ok;
  }
} finally {
  for (const stop of stops) await stop();
  for (const child of children) if (child.pid) process.kill(-child.pid, 'SIGTERM');
  await rm(dataDir, { recursive: true, force: true });
}
if (failed) {
  console.log('\nFirebase Hosting would not serve the client as the server does: see firebase.json.');
  process.exit(1);
}

function start(command: string, args: string[], env: Record<string, string> = {}) {
  // Its own process group: the emulator starts a Java-free Node child of its own, stopped with it.
  const child = spawn(command, args, {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'ignore', 'inherit'],
    detached: true,
  });
  child.on('exit', (code) => {
    if (code) console.error(`${path.basename(command)} exited with ${code}`);
  });
  children.push(child);
}

async function answers(url: string, what: string) {
  const deadline = Date.now() + 60_000;
  for (;;) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // Not listening yet.
    }
    if (Date.now() > deadline) throw new Error(`${what} did not answer ${url} within 60 s`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

function show(response: Response, name: string) {
  const value = response.headers.get(name);
  return value === null ? '(none)' : JSON.stringify(value);
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}
