import { readFileSync } from 'node:fs';
import path from 'node:path';

interface Chunk {
  file: string;
  isEntry?: boolean;
  imports?: string[];
  css?: string[];
}

/** Vite's build manifest (`build.manifest: true`): which chunk each source module became, and what it imports. */
export function readViteManifest(clientDir: string) {
  const manifest = JSON.parse(readFileSync(path.join(clientDir, '.vite/manifest.json'), 'utf8')) as Record<string, Chunk>;
  const entry = Object.keys(manifest).find((key) => manifest[key]!.isEntry && manifest[key]!.file.endsWith('.js'));
  if (!entry) throw new Error('The manifest names no JavaScript entry');

  /** The files a module needs at once: its chunk and, recursively, the chunks it imports statically. */
  function staticClosure(key: string, into = new Set<string>()): Set<string> {
    const chunk = manifest[key];
    if (!chunk) throw new Error(`${key} is not in Vite's manifest: did the route move? (scripts/public-pages.ts)`);
    if (into.has(chunk.file)) return into;
    into.add(chunk.file);
    for (const imported of chunk.imports ?? []) staticClosure(imported, into);
    return into;
  }

  return { entry, staticClosure };
}
