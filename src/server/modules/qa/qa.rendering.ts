import katex from 'katex';
import { createPostRenderer, postHtmlVersion } from '../../../common/post-html.ts';
import type { StoredHtml } from './qa.storage.ts';

const postHtml = createPostRenderer(katex);

/**
 * Each post's HTML as the board's one pipeline renders it (common/post-html.ts, docs/decisions/0060), kept by
 * its text: a post is rendered once per process, not on every read of a page that shows it (KaTeX and the
 * highlighter take a millisecond or more for a long post; the board's reads take about one). A post posted now
 * keeps its HTML in storage (`htmlToStore`, decision 0064); this serves the others and the posting itself. The
 * most lately used are kept, up to `keptChars` characters of text and HTML together (about 16 MB of strings).
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

/**
 * The longest HTML kept with a post, in characters: far under a Firestore document's 1 MiB with the post's text and
 * search pieces beside it. Mostly ASCII; a 10,000-character post of dense maths can pass it, and is rendered when
 * read instead.
 */
const storedHtmlMaxChars = 100_000;

/** A post's HTML to keep with it as it is posted (decision 0064); none when too long to keep. */
export function htmlToStore(text: string): StoredHtml | null {
  const html = renderPost(text);
  return html.length <= storedHtmlMaxChars ? { html, version: postHtmlVersion } : null;
}

/**
 * A post's HTML for its readers: as kept when it was posted, when this pipeline's version made it; otherwise
 * (posted before HTML was kept, imported, too long to keep, or kept by an older pipeline) rendered now.
 */
export const htmlOf = (post: { text: string; storedHtml: StoredHtml | null }): string =>
  post.storedHtml?.version === postHtmlVersion ? post.storedHtml.html : renderPost(post.text);
