/**
 * A page rendered by React (scripts/prerender.ts at build time, server/http/rendered-pages.ts per request) put
 * into the built page around it: its `<title>`, description and canonical link into the head, the rest into the
 * root, and, for a page rendered with data, that data for the browser's first render to be the same.
 */

/** What React puts first when it renders a page (components/page-meta.tsx): they belong in the head. */
const hoisted = /^(?:<(?:title|meta|link)\b[^>]*>(?:[^<]*<\/title>)?)+/;

/** The tags React hoisted to the front of `rendered`. */
export const hoistedHead = (rendered: string): string => hoisted.exec(rendered)?.[0] ?? '';

/** The id of the `<script type="application/json">` that holds the data a page was rendered with. */
export const pageDataId = 'tutorbook-page-data';

/** The data a page was rendered with on the server, and the path it is for (lib/page-data.tsx reads it). */
export interface ServedPageData {
  path: string;
  /** Where the site is served from, for canonical addresses (`PUBLIC_URL`). */
  origin: string;
  data: unknown;
}

/**
 * `rendered` (renderToString's output) put into `template`, a built page whose root is empty; `extraHead` goes
 * into the head too. Replaced with functions: a `$&` or `$'` in what a user wrote must stay as it is.
 */
export function intoTemplate(
  template: string,
  rendered: string,
  { extraHead = '', served }: { extraHead?: string; served?: ServedPageData } = {},
): string {
  const head = hoistedHead(rendered);
  if (!template.includes('<div id="root"></div>')) throw new Error('The page template has no empty <div id="root">');
  const html = template
    .replace('</head>', () => `${head}${extraHead}</head>`)
    .replace('<div id="root"></div>', () => `<div id="root">${rendered.slice(head.length)}</div>`);
  return served ? html.replace('</body>', () => `${pageDataScript(served)}</body>`) : html;
}

/**
 * A data block, not a script: the browser never runs it, so the CSP, which bars inline scripts, allows it.
 * `<` is written as `\u003c` so that no text in it can close the element.
 */
function pageDataScript(served: ServedPageData): string {
  const json = JSON.stringify(served).replace(/</g, '\\u003c');
  return `<script type="application/json" id="${pageDataId}">${json}</script>`;
}
