import katex from 'katex';
import { createPostRenderer } from '../../../common/post-html.ts';

const postHtml = createPostRenderer(katex);

/**
 * Each post's HTML as the board's one pipeline renders it (common/post-html.ts, docs/decisions/0060), kept by
 * its text: a post is rendered once per process, not on every read of a page that shows it (KaTeX and the
 * highlighter take a millisecond or more for a long post; the board's reads take about one). The most lately
 * used are kept, up to `keptChars` characters of text and HTML together (about 16 MB of strings).
 */
const keptChars = 8_000_000;
const kept = new Map<string, string>();
let keptSize = 0;

export function renderPost(text: string): string {
  const known = kept.get(text);
  if (known !== undefined) {
    // Most lately used last: the first key is the one to drop.
    kept.delete(text);
    kept.set(text, known);
    return known;
  }
  const html = postHtml(text);
  kept.set(text, html);
  keptSize += text.length + html.length;
  for (const [oldest, oldHtml] of kept) {
    if (keptSize <= keptChars) break;
    kept.delete(oldest);
    keptSize -= oldest.length + oldHtml.length;
  }
  return html;
}
