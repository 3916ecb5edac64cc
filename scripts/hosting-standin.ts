/**
 * Firebase Hosting in front of the real server, on this machine (docs/decisions/0038). Google's Hosting emulator
 * serves firebase.json's static half, but every `run` rewrite answers 500 (it cannot reach Cloud Run): this
 * stand-in serves the same files as a deployed site would and sends the rewrites to a local server, doing to
 * them what Hosting does on the way:
 *
 * - only the cookie named `__session` reaches the server; Hosting strips every other one (Firebase's "Manage
 *   cache behavior", Using cookies). A `Set-Cookie` comes back only on an answer whose Cache-Control says
 *   `private` (the emulator's proxy drops it otherwise), an answer without Cache-Control is made `private`, and
 *   `Vary` gets Accept-Encoding, Authorization and Cookie;
 * - a request ends after 60 seconds, streams included ("Firebase Hosting is subject to a 60-second request
 *   timeout"): an answer not begun by then gets 504, one still streaming is cut off;
 * - firebase.json's `headers` apply to every answer, the server's own headers winning where both set one (as in
 *   the emulator);
 * - a file goes with an ETag of its content (a request naming it gets 304) and gzipped where the client accepts
 *   it, as Hosting sends its files.
 *
 * The static half follows the emulator's rules (superstatic: an exact file first, then `cleanUrls` and
 * `trailingSlash`, then the rewrites in order), except that files matching `ignore` are not served, as they
 * are never uploaded (the emulator serves them). scripts/check-firebase-hosting.ts compares the two in CI.
 *
 *   npm run build && npm run hosting:local      the server from the build (your environment: DATABASE_URL, …)
 *                                                behind the stand-in on http://127.0.0.1:5055
 *   npm run hosting:local -- --upstream http://127.0.0.1:3000 --stream-limit-seconds 5
 *
 * It needs nothing but Node: CI runs it after `npm prune --omit=dev`.
 *
 * What it cannot know, not having Hosting to look at: whether Hosting passes a stream on as it comes or holds
 * it back until it ends (firebase/firebase-tools#9774 reports the latter; here it is passed on), how Hosting ends
 * a stream at the limit (here the connection is closed), and the `X-Forwarded-For` chain Cloud Run receives
 * (here the client's address is appended to any the request had). Nor does it keep 404s, which Hosting's CDN
 * does for 10 minutes when the server's 404 has no Cache-Control: it says so in its log instead.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import {
  createServer,
  request as httpRequest,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type OutgoingHttpHeaders,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

/** Hosting's documented request time limit, Cloud Run rewrites included. */
export const hostingRequestLimitMs = 60_000;
/** Where the stand-in answers with `stats()`, as JSON. */
export const statsPath = '/__/hosting-standin/stats';

interface Pattern {
  source?: string;
  glob?: string;
  regex?: string;
}

export interface HostingConfig {
  public: string;
  ignore?: string[];
  cleanUrls?: boolean;
  trailingSlash?: boolean;
  headers?: (Pattern & { headers: { key: string; value: string }[] })[];
  rewrites?: (Pattern & { destination?: string; run?: { serviceId: string; region?: string } })[];
}

/** Keys of firebase.json's `hosting` the stand-in imitates, and those that only matter to a deploy. */
const imitated = new Set(['public', 'ignore', 'cleanUrls', 'trailingSlash', 'headers', 'rewrites']);
const deployOnly = new Set(['site', 'target', 'predeploy', 'postdeploy']);

export interface HostingStandinOptions {
  /** firebase.json's `hosting`. */
  config: HostingConfig;
  /** The folder `public` is relative to (firebase.json's); `publicDir` replaces the two. */
  root?: string;
  publicDir?: string;
  /** The server that `run` rewrites reach, e.g. http://127.0.0.1:3000. */
  upstream: string;
  /** When a proxied request is ended: Hosting's 60 s unless a test wants it sooner. */
  requestLimitMs?: number;
  host?: string;
  /** 0: any free port. */
  port?: number;
  /** Told of what Hosting would do differently from the server alone (a dropped cookie, a cut stream). */
  log?: (message: string) => void;
}

export interface HostingStandin {
  url: string;
  /** Its Node server: a benchmark counts the bytes on its sockets (bench/student-day.ts). */
  server: Server;
  /** Requests sent to the server, by path (without the query), and streams cut at the time limit. */
  stats(): { proxied: Record<string, number>; cut: number };
  close(): Promise<void>;
}

export async function startHostingStandin(options: HostingStandinOptions): Promise<HostingStandin> {
  const { config } = options;
  const unknown = Object.keys(config).filter((key) => !imitated.has(key) && !deployOnly.has(key));
  if (unknown.length) throw new Error(`hosting stand-in: firebase.json's hosting.${unknown[0]} is not imitated`);
  for (const rewrite of config.rewrites ?? []) {
    if (!rewrite.destination && !rewrite.run)
      throw new Error(
        `hosting stand-in: only "destination" and "run" rewrites are imitated: ${JSON.stringify(rewrite)}`,
      );
  }
  const publicDir = path.resolve(options.publicDir ?? path.join(options.root ?? '.', config.public));
  const upstream = new URL(options.upstream);
  const limitMs = options.requestLimitMs ?? hostingRequestLimitMs;
  const log = options.log ?? (() => {});
  const proxied: Record<string, number> = {};
  let cut = 0;
  const open = new Set<ServerResponse>();

  /** The file a URL path names in the deployed site, or undefined (missing, a folder, or never uploaded). */
  function deployedFile(urlPath: string): string | undefined {
    let decoded: string;
    try {
      decoded = decodeURIComponent(urlPath);
    } catch {
      return undefined;
    }
    const file = path.join(publicDir, decoded);
    const relative = path.relative(publicDir, file);
    if (relative.startsWith('..') || path.isAbsolute(relative) || decoded.includes('\0')) return undefined;
    if ((config.ignore ?? []).some((pattern) => path.matchesGlob(relative, pattern))) return undefined;
    try {
      return statSync(file).isFile() ? file : undefined;
    } catch {
      return undefined;
    }
  }

  /** superstatic's files step (the emulator's): an exact file, a folder's index.html, or `.html` added. */
  function staticAnswer(pathname: string, search: string): { file: string } | { redirect: string } | undefined {
    const clean = config.cleanUrls === true;
    const trailing = config.trailingSlash;
    const orRoot = (p: string) => p || '/';
    const exact = deployedFile(pathname);
    if (exact) {
      if (clean && pathname.endsWith('.html')) {
        let to = pathname.slice(0, -'.html'.length);
        if (to.endsWith('/index')) to = to.slice(0, -'/index'.length);
        if (trailing === true) to = withSlash(to);
        return { redirect: orRoot(to + search) };
      }
      return { file: exact };
    }
    const slashed = pathname.endsWith('/');
    const index = deployedFile(`${withSlash(pathname)}index.html`);
    if (index) {
      if (trailing === undefined && !slashed && !clean) return { redirect: withSlash(pathname) + search };
      if (trailing === false && slashed && pathname !== '/')
        return { redirect: orRoot(pathname.slice(0, -1) + search) };
      if (trailing === true && !slashed) return { redirect: withSlash(pathname) + search };
      return { file: index };
    }
    if (!clean) return undefined;
    let appended = pathname;
    if (!slashed) appended += '.html';
    else if (trailing !== undefined) appended = `${pathname.slice(0, -1)}.html`;
    const html = deployedFile(appended);
    if (!html) return undefined;
    if (trailing === false && slashed) return { redirect: orRoot(pathname.slice(0, -1) + search) };
    if (trailing === true && !slashed) {
      return { redirect: withSlash(appended.replace(/\.html$/, '').replace(/\/index$/, '')) + search };
    }
    if (appended.endsWith('/index.html'))
      return { redirect: orRoot(appended.slice(0, -'/index.html'.length) + search) };
    return { file: html };
  }

  /** firebase.json's headers for a path, in order: a later rule's value replaces an earlier one's. */
  function configuredHeaders(pathname: string): OutgoingHttpHeaders {
    const headers: OutgoingHttpHeaders = {};
    for (const rule of config.headers ?? []) {
      if (matches(rule, pathname)) for (const { key, value } of rule.headers) headers[key.toLowerCase()] = value;
    }
    return headers;
  }

  /**
   * A file as Hosting sends it: with an ETag of its content, a 304 to a request that names it, and gzipped when
   * the client accepts it and the type is text (Hosting stores files gzipped; whether it also sends Brotli is
   * not known here, so the stand-in does not: it counts the larger).
   */
  function sendFile(req: IncomingMessage, res: ServerResponse, file: string, headers: OutgoingHttpHeaders) {
    const kept = keptFile(file);
    const type = contentType(file);
    const common = { ...headers, 'content-type': type, etag: kept.etag, vary: 'Accept-Encoding' };
    const named = (req.headers['if-none-match'] ?? '').split(',').map((tag) => tag.trim().replace(/^W\//, ''));
    if (named.includes(kept.etag) || named.includes('*')) return void res.writeHead(304, common).end();
    const gzip = compressibleType.test(type) && /\bgzip\b/.test(req.headers['accept-encoding'] ?? '');
    const body = gzip ? (kept.gzip ??= gzipSync(kept.body)) : kept.body;
    res.writeHead(200, { ...common, ...(gzip && { 'content-encoding': 'gzip' }), 'content-length': body.length });
    res.end(req.method === 'HEAD' ? undefined : body);
  }

  function proxy(req: IncomingMessage, res: ServerResponse, pathname: string, headers: OutgoingHttpHeaders) {
    proxied[pathname] = (proxied[pathname] ?? 0) + 1;
    const forwarded = forwardedHeaders(req, upstream);
    if (req.headers.cookie && !forwarded.cookie) log(`${pathname}: cookies other than __session dropped`);
    let answered = false;
    const outbound = httpRequest(
      new URL(req.url ?? '/', upstream),
      { method: req.method, headers: forwarded },
      (answer) => {
        answered = true;
        const out = answerHeaders(headers, answer.headers);
        if (answer.headers['set-cookie'] && !out['set-cookie'])
          log(`${pathname}: Set-Cookie dropped (Hosting passes it only when Cache-Control says private)`);
        if (answer.statusCode === 404 && !answer.headers['cache-control'])
          log(`${pathname}: a 404 without Cache-Control, which Hosting's CDN keeps for 10 minutes`);
        res.writeHead(answer.statusCode ?? 502, out);
        res.flushHeaders();
        answer.pipe(res);
      },
    );
    // Hosting ends a request after its time limit, whether or not the answer has begun.
    const limit = setTimeout(() => {
      if (!answered) {
        outbound.destroy();
        if (!res.headersSent) res.writeHead(504, { ...headers, 'content-type': 'text/plain' });
        return void res.end('Timed out waiting for the server to respond.\n');
      }
      cut++;
      log(`${pathname}: cut off after ${limitMs / 1000} s`);
      outbound.destroy();
      res.destroy();
    }, limitMs);
    res.once('close', () => {
      clearTimeout(limit);
      outbound.destroy();
    });
    outbound.once('error', () => {
      if (answered || res.headersSent) return void res.destroy();
      res.writeHead(502, { ...headers, 'content-type': 'text/plain' });
      res.end(`The hosting stand-in could not reach the server at ${upstream.origin}.\n`);
    });
    req.pipe(outbound);
  }

  const server = createServer((req, res) => {
    open.add(res);
    res.once('close', () => open.delete(res));
    // Appended, not resolved: `//about` is a path here, not a host.
    const url = new URL(`http://standin${req.url ?? '/'}`);
    const pathname = url.pathname.replace(/\/{2,}/g, '/');
    // The stand-in's own counts, for tests in a browser: Hosting keeps /__/ for itself, so no site path is lost.
    if (pathname === statsPath) {
      res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store' });
      return void res.end(JSON.stringify({ proxied, cut }));
    }
    const headers = configuredHeaders(pathname);
    const found = staticAnswer(pathname, url.search);
    if (found && 'redirect' in found) {
      res.writeHead(301, { ...headers, location: found.redirect, 'content-type': 'text/plain; charset=utf-8' });
      return void res.end(`Redirecting to ${found.redirect}`);
    }
    if (found) return sendFile(req, res, found.file, headers);
    const rewrite = (config.rewrites ?? []).find((rule) => matches(rule, pathname));
    if (rewrite?.run) return proxy(req, res, pathname, headers);
    const destination = rewrite?.destination && deployedFile(rewrite.destination);
    if (destination) return sendFile(req, res, destination, headers);
    res.writeHead(404, { ...headers, 'content-type': 'text/plain; charset=utf-8' });
    res.end('Page Not Found\n');
  });
  // Streams stay open for up to the time limit: no idle timeout of Node's own may end them first.
  server.requestTimeout = 0;
  server.headersTimeout = 0;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', resolve);
  });
  const { address, port } = server.address() as AddressInfo;
  return {
    url: `http://${address.includes(':') ? `[${address}]` : address}:${port}`,
    server,
    stats: () => ({ proxied: { ...proxied }, cut }),
    async close() {
      for (const res of open) res.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

const withSlash = (p: string) => (p.endsWith('/') ? p : `${p}/`);

function matches(pattern: Pattern, pathname: string): boolean {
  if (pattern.regex !== undefined) return new RegExp(pattern.regex, 'u').test(pathname);
  const glob = pattern.glob ?? pattern.source;
  return glob !== undefined && path.posix.matchesGlob(pathname, glob);
}

/** Connection-level headers, which a proxy never passes on. */
const hopByHop = new Set([
  'connection',
  'keep-alive',
  'proxy-authenticate',
  'proxy-authorization',
  'proxy-connection',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
]);

/** What reaches the server: the request's headers, with `__session` the only cookie, and who asked. */
function forwardedHeaders(req: IncomingMessage, upstream: URL): OutgoingHttpHeaders {
  const headers: OutgoingHttpHeaders = {};
  for (const [key, value] of Object.entries(req.headers)) {
    if (value !== undefined && !hopByHop.has(key) && key !== 'host' && key !== 'cookie') headers[key] = value;
  }
  const session = (req.headers.cookie ?? '').split(/;\s*/).find((cookie) => cookie.startsWith('__session='));
  if (session) headers.cookie = session;
  headers.host = upstream.host;
  headers['x-forwarded-host'] = req.headers.host ?? '';
  headers['x-forwarded-proto'] = 'http';
  const client = req.socket.remoteAddress ?? '';
  const before = req.headers['x-forwarded-for'];
  headers['x-forwarded-for'] = before ? `${String(before)}, ${client}` : client;
  return headers;
}

/** What the browser gets: firebase.json's headers, the server's over them, and Hosting's changes. */
function answerHeaders(configured: OutgoingHttpHeaders, fromServer: IncomingHttpHeaders): OutgoingHttpHeaders {
  const headers: OutgoingHttpHeaders = { ...configured };
  for (const [key, value] of Object.entries(fromServer)) {
    if (value !== undefined && !hopByHop.has(key)) headers[key] = value;
  }
  const cacheControl = typeof fromServer['cache-control'] === 'string' ? fromServer['cache-control'] : undefined;
  headers['cache-control'] = cacheControl ?? 'private';
  if (!/\bprivate\b/.test(String(headers['cache-control']))) delete headers['set-cookie'];
  const vary = new Set(
    String(fromServer.vary ?? '')
      .split(',')
      .map((part) => part.trim())
      .filter(Boolean),
  );
  for (const name of ['Accept-Encoding', 'Authorization', 'Cookie'])
    if (![...vary].some((v) => v.toLowerCase() === name.toLowerCase())) vary.add(name);
  headers.vary = [...vary].join(', ');
  return headers;
}

const contentTypes: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.webmanifest': 'application/manifest+json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.webp': 'image/webp',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
  '.xml': 'application/xml; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
};

/** The types Hosting compresses. */
const compressibleType = /^(?:text\/|application\/(?:javascript|json|manifest\+json|xml)|image\/svg\+xml)/;

/** The files the stand-in has read, with their ETag and compressed copies, kept while unchanged on disk. */
const keptFiles = new Map<string, { mtimeMs: number; etag: string; body: Buffer; gzip?: Buffer }>();
function keptFile(file: string) {
  const { mtimeMs } = statSync(file);
  let kept = keptFiles.get(file);
  if (kept?.mtimeMs !== mtimeMs) {
    const body = readFileSync(file);
    kept = { mtimeMs, body, etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"` };
    keptFiles.set(file, kept);
  }
  return kept;
}

function contentType(file: string): string {
  return contentTypes[path.extname(file).toLowerCase()] ?? 'application/octet-stream';
}

/** firebase.json's `hosting`, and the port its Hosting emulator uses. */
export function readFirebaseJson(file = 'firebase.json'): { hosting: HostingConfig; emulatorPort?: number } {
  const json = JSON.parse(readFileSync(file, 'utf8')) as {
    hosting?: HostingConfig | HostingConfig[];
    emulators?: { hosting?: { port?: number } };
  };
  if (!json.hosting || Array.isArray(json.hosting))
    throw new Error(`${file}: the stand-in imitates one "hosting" object, not none or a list of sites`);
  return { hosting: json.hosting, emulatorPort: json.emulators?.hosting?.port };
}

if (import.meta.main) await main();

async function main() {
  const { values } = (await import('node:util')).parseArgs({
    options: {
      port: { type: 'string' },
      upstream: { type: 'string' },
      'stream-limit-seconds': { type: 'string' },
      config: { type: 'string', default: 'firebase.json' },
    },
  });
  const { hosting, emulatorPort } = readFirebaseJson(values.config);
  const port = Number(values.port ?? emulatorPort ?? 5055);
  const limitSeconds = Number(values['stream-limit-seconds'] ?? hostingRequestLimitMs / 1000);
  if (!Number.isInteger(port) || !(limitSeconds > 0)) {
    console.error('hosting stand-in: --port takes a port number, --stream-limit-seconds a number of seconds');
    process.exit(1);
  }
  const origin = `http://127.0.0.1:${port}`;
  let server: ChildProcess | undefined;
  let upstream = values.upstream;
  if (!upstream) {
    // The server from the build, with the caller's environment, answering as the site it sits behind: auth
    // accepts posts from PUBLIC_URL's origin only.
    const { findClosedPort } = await import('../src/server/test/free-port.ts');
    const serverPort = await findClosedPort();
    upstream = `http://127.0.0.1:${serverPort}`;
    console.log(`Starting the server (node src/server/main.ts) on ${upstream} with PUBLIC_URL=${origin}`);
    server = spawn(process.execPath, ['src/server/main.ts'], {
      stdio: 'inherit',
      env: { ...process.env, HOST: '127.0.0.1', PORT: String(serverPort), PUBLIC_URL: origin },
    });
    server.once('exit', (code) => {
      console.error(`hosting stand-in: the server stopped (exit ${code})`);
      process.exit(code ?? 1);
    });
  }
  const standin = await startHostingStandin({
    config: hosting,
    root: path.dirname(path.resolve(values.config)),
    upstream,
    port,
    requestLimitMs: limitSeconds * 1000,
    log: (message) => console.log(`[hosting] ${message}`),
  });
  console.log(
    `Hosting stand-in on ${standin.url}: ${hosting.public} as Hosting serves it, rewrites to ${upstream}, ` +
      `requests ended after ${limitSeconds} s.`,
  );
  const stop = () => {
    server?.removeAllListeners('exit');
    server?.kill('SIGTERM');
    void standin.close().then(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}
