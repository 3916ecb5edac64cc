import { readdirSync, readFileSync } from 'node:fs';

// Which packages a built chunk holds, by source size (a rough guide for keeping the first load small).
const dir = 'dist/client/assets';
const pattern = new RegExp(process.argv[2] ?? '^index-.*\\.js\\.map$');
for (const file of readdirSync(dir).filter((f) => pattern.test(f))) {
  const map = JSON.parse(readFileSync(`${dir}/${file}`, 'utf8')) as { sources: string[]; sourcesContent: string[] };
  const bySource = new Map<string, number>();
  map.sources.forEach((s, i) => {
    const key = /node_modules\/((@[^/]+\/)?[^/]+)/.exec(s)?.[1] ?? s.replace(/^(\.\.\/)+/, '');
    bySource.set(key, (bySource.get(key) ?? 0) + (map.sourcesContent[i]?.length ?? 0));
  });
  console.log(file);
  for (const [k, v] of [...bySource].sort((a, b) => b[1] - a[1]).slice(0, 25))
    console.log(`  ${k} ${Math.round(v / 1024)}k`);
}
