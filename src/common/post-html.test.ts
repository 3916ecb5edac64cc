import { fromHtmlIsomorphic } from 'hast-util-from-html-isomorphic';
import katex from 'katex';
import rehypeStringify from 'rehype-stringify';
import { unified } from 'unified';
import { describe, expect, test } from 'vitest';
import { createPostRenderer, highlightedLanguages } from './post-html.ts';

/**
 * The board's one Markdown pipeline (post-html.ts, decision 0060): maths by KaTeX, code by lowlight, and a strict
 * allowlist over all of it. The browser runs the same module for its preview (tests/qa-maths.spec.ts compares the
 * two on a real page).
 */

const render = createPostRenderer(katex);
const katexOptions = { strict: 'ignore', maxSize: 10, maxExpand: 200, output: 'htmlAndMathml' } as const;
/** KaTeX's own HTML for a formula, parsed and written again as the pipeline writes it. */
const katexHtml = (tex: string, displayMode = false) =>
  unified()
    .use(rehypeStringify)
    .stringify(fromHtmlIsomorphic(katex.renderToString(tex, { ...katexOptions, displayMode }), { fragment: true }));

describe('maths', () => {
  test('$…$ is a formula in its sentence, and $$…$$ one on its own line, readable as MathML', () => {
    const html = render('The mean is $\\bar{x} = \\frac{1}{n}\\sum x_i$, and:\n\n$$\n\\int_0^1 x^2\\,dx\n$$\n');
    expect(html).toMatch(/^<p>The mean is <span class="katex"><span class="katex-mathml"><math /);
    expect(html).toContain('<annotation encoding="application/x-tex">\\bar{x} = \\frac{1}{n}\\sum x_i</annotation>');
    expect(html).toContain('<span class="katex-display" tabindex="0"><span class="katex">');
    expect(html).toContain('<math xmlns="http://www.w3.org/1998/Math/MathML" display="block">');
    expect(html).not.toContain('math-error');
  });

  // Sanitising last must not cost KaTeX anything: every element and attribute it writes (spans with their styles,
  // MathML, the SVG of roots, arrows and strokes) is on the allowlist.
  test.each([
    '\\frac{a}{b}',
    '\\sqrt{x^2+1}',
    '\\sqrt[3]{x}',
    '\\sum_{i=1}^{n} i = \\frac{n(n+1)}{2}',
    '\\int_0^\\infty e^{-x}\\,dx',
    '\\begin{pmatrix} 1 & 0 \\\\ 0 & 1 \\end{pmatrix}',
    '\\overrightarrow{AB}',
    '\\cancel{x}',
    '\\widehat{xyz}',
    '\\color{blue}{x}',
    '\\text{if } x > 0',
    '\\mathbb{R} \\mathcal{N}(\\mu, \\sigma^2) \\mathfrak{g}',
    '\\hat{\\beta} = (X^TX)^{-1}X^Ty',
    '\\binom{n}{k} p^k (1-p)^{n-k}',
    '\\boxed{x = 2}',
    '\\underbrace{a+b}_{n} \\overbrace{c}^{m}',
    '\\xrightarrow{f} \\Longrightarrow',
    '\\left( \\frac{a}{b} \\right] \\Bigg\\{',
    'x \\not= y \\neq z',
    '\\phantom{x} \\smash{y} \\mathrlap{z}',
  ])('KaTeX writes %s whole through the allowlist', (tex) => {
    expect(render(`$${tex}$`)).toBe(`<p>${katexHtml(tex)}</p>`);
  });

  test('a display formula with aligned lines and a tag passes whole too', () => {
    const tex = '\\begin{aligned} a &= b + c \\\\ d &= e \\end{aligned} \\tag{1}';
    expect(render(`$$\n${tex}\n$$`)).toBe(
      katexHtml(tex, true).replace('<span class="katex-display">', '<span class="katex-display" tabindex="0">'),
    );
  });

  test('maths KaTeX cannot read shows as typed, $ signs and all, with a quiet mark saying why', () => {
    const html = render('Is $\\frac{1}{$ right? And $\\badcommand x$ too.');
    expect(html).toContain('<span class="math-error" title="Not shown as maths: KaTeX parse error:');
    expect(html).toContain('>$\\frac{1}{$</span> right?');
    expect(html).toContain('>$\\badcommand x$</span> too.');
    expect(html).not.toContain('class="katex"');
  });

  test('a display formula KaTeX cannot read keeps its lines as typed', () => {
    expect(render('$$\n\\frac{\nx\n$$')).toMatch(
      /^<p><span class="math-error" title="[^"]+">\$\$\n\\frac\{\nx\n\$\$<\/span><\/p>$/,
    );
  });

  test('no size or expansion runs away: boxes are capped, and a macro bomb is refused', () => {
    expect(render('$\\rule{1000em}{1000em}$')).toContain('border-right-width:10em');
    // Ten macros, each twice the one after it: 2,046 expansions, past the 200 allowed.
    const names = 'abcdefghij'.split('');
    const macros = names.map(
      (n, i) => `\\def\\${n}{${i + 1 < names.length ? `\\${names[i + 1]}\\${names[i + 1]}` : 'x'}}`,
    );
    const bomb = render(`$${macros.join('')}\\a$`);
    expect(bomb).toContain('math-error');
    expect(bomb).toContain('Too many expansions');
  });

  test('without KaTeX (a browser text with no $), a formula would stay as typed, never half-rendered', () => {
    expect(createPostRenderer(undefined)('$x$')).toContain('<span class="math-error" title="Not shown as maths:');
  });
});

describe('code', () => {
  test('Java, Python, SQL, R and JavaScript are highlighted; plain text and other languages stay plain', () => {
    expect(highlightedLanguages.sort()).toEqual(['java', 'javascript', 'python', 'r', 'sql']);
    const samples: Record<string, [string, string]> = {
      java: ['public class Main { int total = 0; }', '<span class="hljs-keyword">public</span>'],
      python: ['def mean(xs):\n    return sum(xs) / len(xs)', '<span class="hljs-keyword">def</span>'],
      py: ['import numpy as np', '<span class="hljs-keyword">import</span>'],
      sql: ['SELECT name FROM students WHERE id = 1;', '<span class="hljs-keyword">SELECT</span>'],
      r: ['x <- c(1, 2, 3)\nmean(x)', '<span class="hljs-operator">&#x3C;-</span>'],
      javascript: ['const total = items.length; // count', '<span class="hljs-comment">// count</span>'],
      js: ['let x = "a";', '<span class="hljs-string">"a"</span>'],
    };
    for (const [language, [code, token]] of Object.entries(samples)) {
      const html = render(`\`\`\`${language}\n${code}\n\`\`\``);
      expect(html, language).toMatch(new RegExp(`^<pre tabindex="0"><code class="language-${language} hljs">`));
      expect(html, language).toContain(token);
    }
    for (const fence of ['```text', '```', '```cobol']) {
      const html = render(`${fence}\nSELECT <b> FROM x\n\`\`\``);
      expect(html, fence).not.toContain('hljs');
      expect(html, fence).toContain('SELECT &#x3C;b> FROM x');
    }
  });

  test('maths signs inside code are code', () => {
    expect(render('`$x$` and\n\n```python\nprice = "$5 and $6"\n```')).not.toContain('katex');
  });
});

describe('safety: whatever is written renders inert', () => {
  test('raw HTML is shown as the text it is', () => {
    const html = render('<script>alert(1)</script>\n\nHi <img src=x onerror=alert(2)> <b>bold</b> <!-- c -->');
    expect(html).not.toMatch(/<script|<img|<b>|<!--/);
    expect(html).toContain('&#x3C;script>alert(1)&#x3C;/script>');
    expect(html).toContain('&#x3C;img src=x onerror=alert(2)>');
  });

  test('links keep only http, https and mailto, and open apart with no referrer', () => {
    const html = render(
      '[a](javascript:alert(1)) [b](JaVaScRiPt:alert(1)) [c](data:text/html,<script>x</script>) [d](vbscript:x) ' +
        '[e](https://example.com) [f](mailto:a@example.com) <javascript:alert(2)>',
    );
    // Each href is http(s) or mailto; the autolink's text stays as text.
    expect(html.match(/href="[^"]*"/g)).toEqual(['href="https://example.com"', 'href="mailto:a@example.com"']);
    expect(html).toContain(
      '<a href="https://example.com" target="_blank" rel="nofollow ugc noopener noreferrer">e</a>',
    );
    expect(html).toContain('<a href="mailto:a@example.com"');
    // A link whose address was dropped is its text.
    expect(html).toMatch(/^<p>a b c d <a href="https:\/\/example\.com"/);
  });

  test("KaTeX's commands that link, load or style are refused: the formula stays as typed", () => {
    for (const tex of [
      '\\href{javascript:alert(1)}{click}',
      '\\url{javascript:alert(1)}',
      '\\includegraphics{https://example.com/x.png}',
      '\\htmlClass{x}{y}',
      '\\htmlId{main}{y}',
      '\\htmlStyle{position:fixed;inset:0}{y}',
      '\\htmlData{foo=bar}{y}',
    ]) {
      const html = render(`$${tex}$`);
      expect(html, tex).toContain('class="math-error"');
      expect(html, tex).toContain('is not allowed here');
      expect(html, tex).not.toMatch(/<a\b|<img\b|\shref=|style="[^"]*position|\sid=|\sdata-foo=/);
    }
  });

  test('headings and images are plain text; nothing carries an id, a handler or a style of its own', () => {
    const html = render('# Title {#id}\n\n![x](https://example.com/a.png "t")\n\n*em* **strong**');
    expect(html).not.toMatch(/<h1|<img| id=| on\w+=/);
    expect(html).toContain('<em>em</em> <strong>strong</strong>');
    // Only KaTeX's spans carry styles.
    expect(
      render('$x^2$ *y*')
        .match(/<(\w+)[^>]*style=/g)
        ?.every((tag) => tag.startsWith('<span')),
    ).toBe(true);
  });
});
