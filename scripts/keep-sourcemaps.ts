import { mkdirSync, readdirSync, renameSync, rmSync } from 'node:fs';
import path from 'node:path';

// After `vite build`: the source maps move from the served folder (dist/client) to dist/sourcemaps, same
// layout. They stay on the machine for debugging a stack trace, and are never served to the public.
const served = path.resolve(process.argv[2] ?? 'dist/client');
const kept = path.resolve(process.argv[3] ?? 'dist/sourcemaps');
rmSync(kept, { recursive: true, force: true });

let moved = 0;
for (const file of walk(served)) {
  if (!file.endsWith('.map')) continue;
  const target = path.join(kept, path.relative(served, file));
  mkdirSync(path.dirname(target), { recursive: true });
  renameSync(file, target);
  moved += 1;
}
console.log(`source maps: ${moved} moved to ${path.relative(process.cwd(), kept)}`);

function* walk(dir: string): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* walk(full);
    else yield full;
  }
}
