import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { prerenderedPages, RequestRenderedPage, SignedInPagePath } from '../src/common/routes.ts';

/**
 * Which built files a page needs at once, read from Vite's manifest (`build.manifest: true`): its chunk and,
 * recursively, the chunks it imports statically. Dynamic imports (what loads when first needed, or once the
 * page is idle) are not followed. Used by the JavaScript budget (check-js-budget.ts) and the worker's
 * precache (precache.ts).
 */

/**
 * Each public page and the module its route loads (src/client/app/router.tsx, `publicPage(...)`): rendered to
 * HTML at build time (prerender.ts), precached (precache.ts) and held to a JavaScript budget (check-js-budget.ts).
 */
export const publicPageModules: Record<keyof typeof prerenderedPages, string> = {
  '/': 'features/public/home-page.tsx',
  '/about': 'features/public/about-page.tsx',
  '/testimonials': 'app/testimonials-route.tsx',
  '/privacy-policy': 'features/public/privacy-page.tsx',
  '/login': 'features/auth/login-page.tsx',
  '/signup': 'features/auth/signup-page.tsx',
};

/**
 * Each signed-in page rendered at build time and the modules its route loads (router.tsx, `page(...)`): its
 * own, and the offline engine with every feature's tables.
 */
export const signedInPageModules: Record<SignedInPagePath, string[]> = {
  '/offers': ['app/offers-route.tsx', 'app/offline-setup.ts'],
  '/qa': ['app/qa-route.tsx', 'app/offline-setup.ts'],
  '/student-dashboard': ['app/student-dashboard.tsx', 'app/offline-setup.ts'],
  '/tutor-dashboard': ['app/staff-dashboards.tsx', 'app/offline-setup.ts'],
  '/admin-dashboard': ['app/staff-dashboards.tsx', 'app/offline-setup.ts'],
};

/** Each page the server renders per request (common/routes.ts `requestRenderedPages`) and the modules its route loads. */
export const requestRenderedPageModules: Record<RequestRenderedPage, string[]> = {
  board: ['app/qa-route.tsx', 'app/offline-setup.ts'],
  question: ['features/qa/question-page.tsx', 'app/offline-setup.ts'],
};

interface Chunk {
  file: string;
  isEntry?: boolean;
  imports?: string[];
  css?: string[];
}

export interface PageChunks {
  /** The entry's own file (the app's shell). */
  entryFile: string;
  /** The files the entry loads at once. */
  entry: Set<string>;
  /** The files `modules` (keys of the manifest, as in `publicPageModules`) need at once, the entry's included. */
  closure(...modules: string[]): Set<string>;
}

export function readPageChunks(clientDir: string): PageChunks {
  const manifest = JSON.parse(readFileSync(path.join(clientDir, '.vite/manifest.json'), 'utf8')) as Record<
    string,
    Chunk
  >;
  const entryKey = Object.keys(manifest).find((key) => manifest[key]!.isEntry && manifest[key]!.file.endsWith('.js'));
  if (!entryKey) throw new Error('The manifest names no JavaScript entry');

  const staticClosure = (key: string, into: Set<string>): Set<string> => {
    const chunk = manifest[key];
    if (!chunk) throw new Error(`${key} is not in the manifest: did the route move? (scripts/page-chunks.ts)`);
    if (into.has(chunk.file)) return into;
    into.add(chunk.file);
    for (const css of chunk.css ?? []) into.add(css);
    for (const imported of chunk.imports ?? []) staticClosure(imported, into);
    return into;
  };
  const entry = staticClosure(entryKey, new Set());
  return {
    entryFile: manifest[entryKey]!.file,
    entry,
    closure: (...modules) => modules.reduce((into, module) => staticClosure(module, into), new Set(entry)),
  };
}
