import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

// After `vite build`: a .br and a .gz beside each text asset, which the server sends to browsers that accept
// them (serveStatic's `precompressed`). Done once here at the highest levels, rather than on every request.
const root = path.resolve(process.argv[2] ?? 'dist/client');
const compressible = /\.(js|css|html|svg|webmanifest|json|txt)$/;

let before = 0;
let after = 0;
for (const file of walk(root)) {
  if (!compressible.test(file) || statSync(file).size < 1024) continue;
  const data = readFileSync(file);
  const br = brotliCompressSync(data, {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
      [constants.BROTLI_PARAM_SIZE_HINT]: data.length,
    },
  });
  writeFileSync(`${file}.br`, br);
  writeFileSync(`${file}.gz`, gzipSync(data, { level: 9 }));
  before += data.length;
  after += br.length;
}
console.log(`compressed assets: ${Math.round(before / 1024)} kB → ${Math.round(after / 1024)} kB with brotli`);

function* walk(dir: string): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* walk(full);
    else yield full;
  }
}
