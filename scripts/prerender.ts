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
 * Each page also preloads its own chunks, so that hydration does not wait for them one after another, at a
 * low priority.
 */
export async function prerenderPublicPages(clientDir: string, ssrEntry: string) {
  const { renderPage } = (await import(pathToFileURL(ssrEntry).href)) as { renderPage: RenderPage };
  const shell = readFileSync(path.join(clientDir, 'index.html'), 'utf8');
  if (!shell.includes('<div id="root"></div>')) throw new Error('The built index.html has no empty <div id="root">');
  writeFileSync(path.join(clientDir, shellFile), shell);

  const chunks = readPageChunks(clientDir);
  for (const [pagePath, file] of Object.entries(prerenderedPages)) {
    const rendered = await renderPage(pagePath);
    const head = hoisted.exec(rendered)?.[0] ?? '';
    if (!head.includes('<title>')) throw new Error(`${pagePath} rendered no <title> first (components/page-meta.tsx)`);
    const preloads = [...chunks.closure(publicPageModules[pagePath as keyof typeof prerenderedPages])]
      .filter((chunk) => chunk.endsWith('.js') && !chunks.entry.has(chunk))
      .map((chunk) => `<link rel="modulepreload" fetchpriority="low" crossorigin href="/${chunk}">`)
      .join('');
    const html = shell
      // The page's text is in it already: its scripts must not compete with the document and the stylesheet.
      .replace(/<(script type="module"|link rel="modulepreload")/g, '<$1 fetchpriority="low"')
      .replace('</head>', `${head}${preloads}</head>`)
      .replace('<div id="root"></div>', `<div id="root">${rendered.slice(head.length)}</div>`);
    writeFileSync(path.join(clientDir, file), html);
  }
  console.log(`prerendered ${Object.keys(prerenderedPages).join(', ')}`);
}
