import type { Element, ElementContent, Root } from 'hast';
import { fromHtmlIsomorphic } from 'hast-util-from-html-isomorphic';
import java from 'highlight.js/lib/languages/java';
import javascript from 'highlight.js/lib/languages/javascript';
import python from 'highlight.js/lib/languages/python';
import r from 'highlight.js/lib/languages/r';
import sql from 'highlight.js/lib/languages/sql';
import type katexModule from 'katex';
import { createLowlight } from 'lowlight';
import rehypeSanitize, { type Options as SanitizeSchema } from 'rehype-sanitize';
import rehypeStringify from 'rehype-stringify';
import remarkMath from 'remark-math';
import remarkParse from 'remark-parse';
import remarkRehype from 'remark-rehype';
import { unified } from 'unified';
import { SKIP, visit } from 'unist-util-visit';

/**
 * The board's one Markdown pipeline (DESIGN "The board's content", docs/decisions/0060): what a student or tutor
 * wrote, as sanitised HTML. The server renders every post with it (the API and the pages carry the HTML, so
 * reading needs no renderer in the browser); the browser imports it lazily for the forms' preview and for posts
 * the server has not rendered yet (queued offline), so the two never differ. KaTeX is handed in: the browser
 * loads it (two thirds of the pipeline's bytes) only for a text with a `$` in it, the one way maths starts.
 *
 * - Markdown: paragraphs, lists, links, emphasis, inline code and code blocks. Raw HTML is shown as the text it
 *   is; headings and images become plain text (a post is a message, not a page).
 * - Maths in `$…$` and `$$…$$` by KaTeX, with `trust` off (no `\href`, `\url`, `\includegraphics`, `\html…`) and
 *   sizes capped. Maths KaTeX cannot read stays as typed, delimiters and all, with a quiet mark (`math-error`).
 * - Fenced code highlighted by lowlight (highlight.js's grammars) in the languages below; others stay plain.
 * - Last, a strict allowlist (rehype-sanitize) over the whole tree, KaTeX's and lowlight's output included.
 */

/** The code block languages highlighted (issue 39); their aliases (`js`, `py`) come with the grammars. */
const lowlight = createLowlight({ java, javascript, python, r, sql });
export const highlightedLanguages = lowlight.listLanguages();

/**
 * KaTeX's settings: no box bigger than 10 em, few macros, and nothing that links, loads or styles from a post.
 * Untrusted, KaTeX would show `\href` and its kin in red and drop their arguments: refused instead, the formula
 * stays as typed with the quiet mark, like any maths KaTeX cannot read.
 */
const katexOptions = {
  trust: ({ command }: { command: string }): boolean => {
    throw new Error(`${command} is not allowed here`);
  },
  strict: 'ignore',
  maxSize: 10,
  maxExpand: 200,
  output: 'htmlAndMathml',
  throwOnError: true,
} as const;

const classesOf = (node: Element): string[] =>
  Array.isArray(node.properties.className) ? node.properties.className.map(String) : [];

const textOf = (node: Element): string =>
  node.children
    .map((child) => (child.type === 'text' ? child.value : child.type === 'element' ? textOf(child) : ''))
    .join('');

/** A raw HTML node (which remark-rehype keeps) becomes its text: shown as typed, never parsed. */
function rawAsText() {
  return (tree: Root) => {
    visit(tree, 'raw', (node, index, parent) => {
      if (parent && index !== undefined) parent.children[index] = { type: 'text', value: node.value };
    });
  };
}

/** What the pipeline uses of KaTeX. */
export type Katex = Pick<typeof katexModule, 'renderToString'>;

/**
 * `$…$` (remark-math: `<code class="math-inline">`) and `$$…$$` (`<pre><code class="math-display">`) by KaTeX.
 * rehype-katex would do this, but on an error it shows the formula without its `$` signs, in red.
 */
function renderMaths(katex: Katex | undefined) {
  return (tree: Root, file: { value: unknown }) => {
    visit(tree, 'element', (node, index, parent) => {
      if (!parent || index === undefined) return;
      const display = node.tagName === 'pre' && node.children[0]?.type === 'element' ? node.children[0] : undefined;
      const math = display ?? node;
      const classes = classesOf(math);
      const displayMode = display !== undefined && classes.includes('math-display');
      if (!displayMode && !(node.tagName === 'code' && classes.includes('math-inline'))) return;
      const tex = textOf(math);
      let replacement: ElementContent[];
      try {
        if (!katex) throw new Error('KaTeX was not loaded');
        replacement = fromHtmlIsomorphic(katex.renderToString(tex, { ...katexOptions, displayMode }), {
          fragment: true,
        }).children as ElementContent[];
      } catch (error) {
        const { start, end } = node.position ?? {};
        const typed =
          start?.offset !== undefined && end?.offset !== undefined
            ? String(file.value).slice(start.offset, end.offset)
            : displayMode
              ? `$$\n${tex}\n$$`
              : `$${tex}$`;
        const mark: Element = {
          type: 'element',
          tagName: 'span',
          properties: {
            className: ['math-error'],
            title: `Not shown as maths: ${error instanceof Error ? error.message : String(error)}`,
          },
          children: [{ type: 'text', value: typed }],
        };
        replacement = [displayMode ? { type: 'element', tagName: 'p', properties: {}, children: [mark] } : mark];
      }
      parent.children.splice(index, 1, ...replacement);
      return [SKIP, index + replacement.length];
    });
  };
}

/** A fenced block in a known language (```java) gets highlight.js's token classes; any other stays plain text. */
function highlightCode() {
  return (tree: Root) => {
    visit(tree, 'element', (node, _index, parent) => {
      if (node.tagName !== 'code' || parent?.type !== 'element' || parent.tagName !== 'pre') return;
      const classes = classesOf(node);
      const language = classes.find((c) => c.startsWith('language-'))?.slice('language-'.length);
      if (!language || !lowlight.registered(language)) return SKIP;
      node.children = lowlight.highlight(language, textOf(node)).children as ElementContent[];
      node.properties.className = [...classes, 'hljs'];
      return SKIP;
    });
  };
}

/**
 * Links people post lead off the site: a new tab, no referrer, no ranking credit; one whose address the allowlist
 * dropped (`javascript:`) is its text alone. A code block and a formula on its own line are focusable, so a
 * keyboard can scroll one wider than a phone sideways. Added after the allowlist: fixed values, never a post's.
 */
function decorate() {
  return (tree: Root) => {
    visit(tree, 'element', (node, index, parent) => {
      if (node.tagName === 'a' && node.properties.href === undefined && parent && index !== undefined) {
        parent.children.splice(index, 1, ...node.children);
        return index;
      }
      if (node.tagName === 'a') {
        node.properties.target = '_blank';
        node.properties.rel = ['nofollow', 'ugc', 'noopener', 'noreferrer'];
      } else if (node.tagName === 'pre' || (node.tagName === 'span' && classesOf(node).includes('katex-display'))) {
        node.properties.tabIndex = 0;
        return SKIP;
      }
    });
  };
}

/** The MathML elements KaTeX writes, and their attributes (src/mathMLTree.js, src/buildMathML.js). */
const mathmlTags = [
  'math',
  'semantics',
  'annotation',
  'mrow',
  'mi',
  'mn',
  'mo',
  'ms',
  'mtext',
  'mspace',
  'msup',
  'msub',
  'msubsup',
  'mfrac',
  'msqrt',
  'mroot',
  'mover',
  'munder',
  'munderover',
  'mtable',
  'mtr',
  'mtd',
  'mlabeledtr',
  'mstyle',
  'mpadded',
  'mphantom',
  'menclose',
  'mglyph',
];
const mathmlAttributes = [
  'xmlns',
  'display',
  'encoding',
  'mathvariant',
  'mathcolor',
  'mathbackground',
  'mathsize',
  'stretchy',
  'fence',
  'separator',
  'symmetric',
  'largeop',
  'movablelimits',
  'minsize',
  'maxsize',
  'lspace',
  'rspace',
  'width',
  'height',
  'depth',
  'voffset',
  'linebreak',
  'accent',
  'accentunder',
  'linethickness',
  'scriptlevel',
  'displaystyle',
  'notation',
  'columnalign',
  'columnlines',
  'columnspacing',
  'rowalign',
  'rowlines',
  'rowspacing',
  'rowspan',
  'columnspan',
  'frame',
  'framespacing',
  'equalrows',
  'equalcolumns',
  'side',
  'src',
  'alt',
  'valign',
];

/**
 * What may be in a post's HTML, and nothing else: the Markdown elements above, KaTeX's spans, MathML and SVG, and
 * lowlight's spans. No ids, no event handlers, no `javascript:` (links keep only http, https and mailto).
 */
export const postSchema: SanitizeSchema = {
  tagNames: [
    'p',
    'br',
    'ul',
    'ol',
    'li',
    'a',
    'em',
    'strong',
    'del',
    'code',
    'pre',
    'blockquote',
    'hr',
    'span',
    'svg',
    'path',
    'line',
    ...mathmlTags,
  ],
  attributes: {
    a: ['href'],
    ol: ['start'],
    code: [['className', /^language-[\w-]+$/, 'hljs']],
    span: ['className', 'style', 'title', 'ariaHidden'],
    svg: ['xmlns', 'width', 'height', 'viewBox', 'preserveAspectRatio', 'style'],
    path: ['d'],
    line: ['x1', 'y1', 'x2', 'y2', 'strokeWidth'],
    ...Object.fromEntries(mathmlTags.map((tag) => [tag, mathmlAttributes])),
  },
  // `mglyph`'s `src` would load an image: no protocol is allowed for it, so it is always dropped.
  protocols: { href: ['http', 'https', 'mailto'], src: [] },
  strip: ['script', 'style'],
  clobber: [],
  clobberPrefix: '',
  allowComments: false,
  allowDoctypes: false,
};

/**
 * The version of what the pipeline makes of a text. The server keeps each post's HTML as rendered when it was
 * posted, with this version (decision 0064): raise it whenever a change here changes any post's HTML (a
 * library's upgrade too), and posts kept with an older one are rendered afresh when read.
 */
export const postHtmlVersion = 1;

/**
 * The pipeline: a post's text (Markdown with maths and code) to the HTML every reader is shown. Without `katex`,
 * any maths stays as typed, marked: only for a text with no `$`.
 */
export function createPostRenderer(katex: Katex | undefined): (text: string) => string {
  const processor = unified()
    .use(remarkParse)
    .use(remarkMath)
    .use(remarkRehype, { allowDangerousHtml: true })
    .use(rawAsText)
    .use(renderMaths, katex)
    .use(highlightCode)
    .use(rehypeSanitize, postSchema)
    .use(decorate)
    .use(rehypeStringify)
    .freeze();
  return (text) => String(processor.processSync(text));
}
