import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { publicPageModules, readPageChunks } from './page-chunks.ts';
import { isBootScript } from './precache.ts';

/**
 * After `npm run build` (CI runs it): the JavaScript each public page needs before it is interactive: its boot
 * script, the entry, the page's own chunk, and everything they import statically (page-chunks.ts). Dynamic imports (what
 * loads when first needed, or once the page is idle) are not counted. The budget (issue 9:
 * ≤ 100 KB) is on the bytes the server sends, brotli-compressed as by scripts/compress-assets.ts; gzip, for
 * browsers without brotli, is printed beside it (React's DOM renderer and the router are ~94 KB gzipped on
 * their own). Fails when a page is over.
 */

const clientDir = path.resolve(process.argv[2] ?? 'dist/client');
/** Issue 9's budget, in KB, for each public page. */
const budgetKb = 100;

const chunks = readPageChunks(clientDir);
const sizes = new Map<string, { br: number; gzip: number }>();
const sizeOf = (file: string) => {
  let size = sizes.get(file);
  if (!size) {
    const data = readFileSync(path.join(clientDir, file));
    const br = brotliCompressSync(data, {
      params: { [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY },
    }).length;
    size = { br, gzip: gzipSync(data, { level: 9 }).length };
    sizes.set(file, size);
  }
  return size;
};

const kb = (bytes: number) => (bytes / 1024).toFixed(1);
let over = false;
console.log('JavaScript before a public page is interactive (budgets on brotli):');
// The prerendered pages' boot script (src/client/boot.ts), which loads the rest.
const boot = readdirSync(path.join(clientDir, 'assets'))
  .map((file) => `assets/${file}`)
  .filter(isBootScript);
for (const [page, module] of Object.entries(publicPageModules)) {
  const files = [...boot, ...[...chunks.closure(module)].filter((file) => file.endsWith('.js'))];
  const br = files.reduce((sum, file) => sum + sizeOf(file).br, 0);
  const gzip = files.reduce((sum, file) => sum + sizeOf(file).gzip, 0);
  const fits = br <= budgetKb * 1024;
  over ||= !fits;
  console.log(
    `  ${page.padEnd(16)} ${kb(br).padStart(6)} KB brotli  ${kb(gzip).padStart(6)} KB gzip  ${fits ? 'ok' : 'OVER'} (budget ${budgetKb} KB, ${files.length} files)`,
  );
}
const largest = [...sizes].sort((a, b) => b[1].br - a[1].br).slice(0, 5);
console.log(
  `largest (brotli): ${largest.map(([file, size]) => `${path.basename(file)} ${kb(size.br)} KB`).join(', ')}`,
);
if (over) {
  console.error(
    'A public page is over its JavaScript budget: load what it does not show at once later (a dynamic import).',
  );
  process.exit(1);
}
