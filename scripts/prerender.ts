import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { hoistedHead, intoTemplate } from '../src/common/page-html.ts';
import { standInUser, unfillable } from '../src/common/page-user.ts';
import type { Role } from '../src/common/roles.ts';
import {
  prerenderedPages,
  requestRenderedPages,
  shellFile,
  signedInPageFile,
  signedInPages,
  signedInPagesDir,
  type SignedInPagePath,
} from '../src/common/routes.ts';
import type { Me } from '../src/common/session.ts';
import { publicPageModules, readPageChunks, requestRenderedPageModules, signedInPageModules } from './page-chunks.ts';

type RenderPage = (pathname: string, user?: Me) => Promise<string>;

/**
 * Run by the client build once its files are written (vite.config.ts), before the service worker's precache
 * list is made: writes each public page rendered to HTML (src/client/entry-server.tsx, built first by
 * `vite build --ssr`) into the built shell, and keeps the empty shell as `shell.html` for every other page.
 * The signed-in pages are rendered for each role's stand-in user, beside the served folder, for the server to
 * fill in (common/page-user.ts; docs/decisions/0013-signed-in-pages-rendered-at-build-time.md); the pages the
 * server renders per request get their template there, the same page with an empty root (decision 0024).
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
  /** The built shell with the boot script and the preloads of `modules`, its root still empty. */
  const templateFor = (modules: string[]) => {
    const preload = [...chunks.closure(...modules)]
      .filter((chunk) => chunk.endsWith('.js') && chunk !== entry)
      .map((chunk) => `/${chunk}`)
      .join(' ');
    const boot = `<script type="module" crossorigin src="${bootFile}" data-entry="/${entry}" data-preload="${preload}"></script>`;
    return withoutScripts.replace('</head>', `${boot}</head>`);
  };
  /** `pagePath` rendered (for `user`, if given) into the built shell, with the boot script and its preloads. */
  const writePage = async (pagePath: string, modules: string[], file: string, user?: Me) => {
    const rendered = await renderPage(pagePath, user);
    if (!hoistedHead(rendered).includes('<title>'))
      throw new Error(`${pagePath} rendered no <title> first (components/page-meta.tsx)`);
    const shown = unfillable.find((marker) => rendered.includes(marker));
    if (shown) throw new Error(`${pagePath} shows ${shown}, which the server does not fill in (common/page-user.ts)`);
    // A Suspense boundary with content would hydrate after the rest, when lib/hydrated.ts already says true.
    if (rendered.replaceAll('<!--$--><!--/$-->', '').includes('<!--$'))
      throw new Error(`${pagePath} rendered a Suspense boundary with content (lib/hydrated.ts)`);
    writeFileSync(file, intoTemplate(templateFor(modules), rendered));
  };
  for (const [pagePath, file] of Object.entries(prerenderedPages))
    await writePage(
      pagePath,
      [publicPageModules[pagePath as keyof typeof prerenderedPages]],
      path.join(clientDir, file),
    );
  const signedInDir = path.join(clientDir, signedInPagesDir);
  rmSync(signedInDir, { recursive: true, force: true });
  mkdirSync(signedInDir);
  for (const [pagePath, roles] of Object.entries(signedInPages) as [SignedInPagePath, readonly Role[]][])
    for (const role of roles)
      await writePage(
        pagePath,
        signedInPageModules[pagePath],
        path.join(signedInDir, signedInPageFile(pagePath, role)),
        standInUser(role),
      );
  for (const [name, file] of Object.entries(requestRenderedPages))
    writeFileSync(
      path.join(signedInDir, file),
      templateFor(requestRenderedPageModules[name as keyof typeof requestRenderedPages]),
    );
  console.log(
    `prerendered ${Object.keys(prerenderedPages).join(', ')}; for each role, ${Object.keys(signedInPages).join(', ')}`,
  );
}
