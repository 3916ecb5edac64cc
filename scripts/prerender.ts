import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { prerenderedPages, shellFile } from '../src/common/routes.ts';
import { publicPageModules, readPageChunks } from './page-chunks.ts';

type RenderPage = (pathname: string) => Promise<string>;

/** What React hoists out of a page (its `<title>` and `<meta>`, from components/page-meta.tsx): they belong in the head. */
const hoisted = /^(?:<(?:title|meta|link)\b[^>]*>(?:[^<]*<\/title>)?)+/;

/**
 * Run by the client build once its files are written (vite.config.ts), before the service worker's precache
 * list is made: writes each public page rendered to HTML (src/client/entry-server.tsx, built first by
 * `vite build --ssr`) into the built shell, and keeps the empty shell as `shell.html` for every other page.
 * Its only script is `bootFile` (src/client/boot.ts, built by vite.config.ts), which loads the entry and the
 * page's own chunks once the page has been painted, all at once, so that hydration does not wait for them one
 * after another (docs/decisions/0012-public-pages-rendered-at-build-time.md).
 */
export async function prerenderPublicPages(clientDir: string, ssrEntry: string, bootFile: string) {
  const { renderPage } = (await import(pathToFileURL(ssrEntry).href)) as { renderPage: RenderPage };
  const shell = readFileSync(path.join(clientDir, 'index.html'), 'utf8');
  if (!shell.includes('<div id="root"></div>')) throw new Error('The built index.html has no empty <div id="root">');
  writeFileSync(path.join(clientDir, shellFile), shell);

  const chunks = readPageChunks(clientDir);
  const entry = chunks.entryFile;
  // The entry's tag and its preloads give way to the boot script's (src/client/boot.ts).
  const withoutScripts = shell.replace(
    /\s*<(?:script type="module"|link rel="modulepreload")[^>]*>(?:<\/script>)?/g,
    '',
  );
  if (withoutScripts.includes(entry))
    throw new Error(`The built index.html loads ${entry} in a way prerender.ts does not know`);
  for (const [pagePath, file] of Object.entries(prerenderedPages)) {
    const rendered = await renderPage(pagePath);
    const head = hoisted.exec(rendered)?.[0] ?? '';
    if (!head.includes('<title>')) throw new Error(`${pagePath} rendered no <title> first (components/page-meta.tsx)`);
    const preload = [...chunks.closure(publicPageModules[pagePath as keyof typeof prerenderedPages])]
      .filter((chunk) => chunk.endsWith('.js') && chunk !== entry)
      .map((chunk) => `/${chunk}`)
      .join(' ');
    const boot = `<script type="module" crossorigin src="${bootFile}" data-entry="/${entry}" data-preload="${preload}"></script>`;
    const html = withoutScripts
      .replace('</head>', `${head}${boot}</head>`)
      .replace('<div id="root"></div>', `<div id="root">${rendered.slice(head.length)}</div>`);
    writeFileSync(path.join(clientDir, file), html);
  }
  console.log(`prerendered ${Object.keys(prerenderedPages).join(', ')}`);
}
