import path from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { pageDataId } from '../../../common/page-html.ts';
import { pageUserMeta } from '../../../common/page-user.ts';
import type { Question } from '../../../common/qa.ts';
import { questionPath } from '../../../common/routes.ts';
import type { RenderApp } from '../../http/rendered-pages.ts';
import {
  createClient,
  createVerifiedUser,
  logIn,
  signInAs,
  startSmtpServer,
  startTestServer,
  type TestClient,
  type TestServer,
  type TestSmtpServer,
} from '../../test/harness.ts';

/**
 * The board's pages rendered by the server for each request (qa.pages.ts, docs/decisions/0024): the questions in
 * the HTML for a visitor and a search engine, a question's own address with its answers, and a 404 page for
 * one that is not there.
 */

/**
 * The app's own renderer, which `vite build --ssr` makes for the server; here vitest compiles it from its source,
 * so no build is needed. Named by its path rather than imported: server code never imports the client's
 * (eslint.config.js), and this test only runs it.
 */
const entryServer = path.resolve(import.meta.dirname, '../../../client/entry-server.tsx');
const { renderPage } = (await import(entryServer)) as { renderPage: RenderApp };

let smtp: TestSmtpServer;
let server: TestServer;
let visitor: TestClient;
let student: TestClient;
let admin: TestClient;

beforeAll(async () => {
  smtp = await startSmtpServer();
  server = await startTestServer({ smtpUrl: smtp.url, renderApp: renderPage });
  visitor = createClient(server.url);
  const account = await createVerifiedUser(server, { name: 'Thandi Mokoena' });
  student = await logIn(server, account);
  admin = (await signInAs(server, 'admin', { name: 'Lerato Admin' })).client;
});

afterAll(async () => {
  await server?.close();
  await smtp?.close();
});

async function ask(title: string, text: string): Promise<Question> {
  const response = await student.post('/api/questions', { id: crypto.randomUUID(), title, text });
  expect(response.status).toBe(201);
  return response.body as Question;
}

async function answer(question: Question, text: string) {
  const response = await admin.post(`/api/questions/${question.id}/answers`, { id: crypto.randomUUID(), text });
  expect(response.status).toBe(201);
}

/** The data the page carries for the browser's first render. */
function servedData(html: string): { path: string; origin: string; data: unknown } {
  const json = new RegExp(`<script type="application/json" id="${pageDataId}">(.*?)</script>`).exec(html)?.[1];
  expect(json, 'the page carries its data').toBeDefined();
  return JSON.parse(json!) as { path: string; origin: string; data: unknown };
}

test('a visitor gets the board with its questions in the HTML, and the page carries them', async () => {
  const question = await ask('How do I sum a column of a 2D array?', 'With `grid[r][c]` in **two** loops?');
  await answer(question, 'Loop over the rows inside a loop over the columns.');

  const page = await visitor.get('/qa');
  expect(page.status).toBe(200);
  expect(page.headers.get('content-type')).toContain('text/html');
  expect(page.headers.get('vary')).toBe('accept-encoding, cookie');
  expect(page.text).toContain('<title>Community Q&amp;A · TutorBook</title>');
  expect(page.text).toContain(`href="${questionPath(question.id)}"`);
  expect(page.text).toContain('How do I sum a column of a 2D array?');
  // Markdown rendered, and the answers with their author.
  expect(page.text).toContain('<strong>two</strong>');
  expect(page.text).toContain('Loop over the rows inside a loop over the columns.');
  expect(page.text).toContain('Lerato Admin');
  const served = servedData(page.text);
  expect(served.path).toBe('/qa');
  expect(served.origin).toBe(server.url);
  expect((served.data as { questions: Question[] }).questions.map((q) => q.id)).toContain(question.id);
  // Nobody's session: nothing personal, no user for the app to start with.
  expect(page.text).not.toContain(pageUserMeta);
});

test("a question's own address shows it with its answers, a title, a description and a canonical address", async () => {
  const question = await ask('What is a foreign key?', 'In ISTN212 we met `REFERENCES`. What does it *guard*?');
  await answer(question, 'It guards that a row points at a row that exists.');

  const page = await visitor.get(questionPath(question.id));
  expect(page.status).toBe(200);
  expect(page.text).toContain('<title>What is a foreign key? · TutorBook</title>');
  expect(page.text).toContain('<meta name="description" content="In ISTN212 we met REFERENCES. What does it guard?"/>');
  expect(page.text).toContain(`<link rel="canonical" href="${server.url}${questionPath(question.id)}"/>`);
  expect(page.text).toMatch(/<h1[^>]*>What is a foreign key\?<\/h1>/);
  expect(page.text).toContain('It guards that a row points at a row that exists.');
  expect((servedData(page.text).data as { question: Question }).question.id).toBe(question.id);
});

test('a question that is not there, or was deleted, is a 404 page saying so', async () => {
  const unknown = await visitor.get(questionPath(crypto.randomUUID()));
  expect(unknown.status).toBe(404);
  expect(unknown.text).toContain('Question not found');
  expect(unknown.text).toContain('<title>Question not found · TutorBook</title>');
  expect(servedData(unknown.text).data).toEqual({ question: null });

  const question = await ask('A question the admin removes', 'Spam.');
  expect((await visitor.get(questionPath(question.id))).status).toBe(200);
  expect((await admin.delete(`/api/questions/${question.id}`)).status).toBe(200);
  // The page kept for visitors is not kept past the change.
  const gone = await visitor.get(questionPath(question.id));
  expect(gone.status).toBe(404);
  expect(gone.text).not.toContain('Spam.');
  expect((await visitor.get('/qa')).text).not.toContain('A question the admin removes');
});

test('what a user wrote is text in the page: no markup, no script, no break out of the data block', async () => {
  const title = `</script><script>alert(1)</script> $' $& <img src=x onerror=alert(2)>`;
  const question = await ask(title, '<b>bold?</b> </script><!-- $` [x](javascript:alert(3))');

  for (const path of ['/qa', questionPath(question.id)]) {
    const page = await visitor.get(path);
    expect(page.status, path).toBe(200);
    expect(page.text, path).not.toContain('<script>alert(1)');
    expect(page.text, path).not.toContain('<img src=x');
    expect(page.text, path).not.toContain('<b>bold?</b>');
    expect(page.text, path).not.toContain('href="javascript:');
    // Replacement patterns stay as written (no part of the page copied in their place).
    expect(page.text, path).toContain('$&amp;');
    expect(page.text.match(/<div id="root">/g), path).toHaveLength(1);
    // The data block reads back as the question as written.
    const served = servedData(page.text).data as { questions?: Question[]; question?: Question };
    const read = served.question ?? served.questions!.find((q) => q.id === question.id)!;
    expect(read.title, path).toBe(title);
  }
});

test("maths and code are rendered into the HTML, with KaTeX's style sheet only where there is maths", async () => {
  const question = await ask(
    'Why is my loop sum off by one?',
    'The sum should be $\\sum_{i=0}^{n-1} a_i$:\n\n```java\nfor (int i = 0; i <= n; i++) { total += a[i]; }\n```',
  );
  await answer(question, 'The last index is $n-1$, so:\n\n$$\ni < n\n$$\n\nBut $\\frac{1}{$ is not maths.');
  const plain = await ask('A question with neither', 'Just words, and `code` inline.');

  for (const path of ['/qa', questionPath(question.id)]) {
    const page = await visitor.get(path);
    expect(page.status, path).toBe(200);
    const [head, body] = page.text.split('</head>') as [string, string];
    // The formula as MathML (what a screen reader reads) and KaTeX's HTML, the Java with its tokens marked.
    expect(body, path).toContain('<annotation encoding="application/x-tex">\\sum_{i=0}^{n-1} a_i</annotation>');
    expect(body, path).toContain('<span class="katex-html" aria-hidden="true">');
    expect(body, path).toContain('<code class="language-java hljs"><span class="hljs-keyword">for</span>');
    expect(body, path).toContain('<span class="math-error" title="Not shown as maths: KaTeX parse error:');
    expect(body, path).toContain('>$\\frac{1}{$</span> is not maths.');
    // KaTeX's style sheet once, in the body before the posts (not in the head, where it would hold up the first
    // paint), and no font preloaded: they load as formulas need them. Here from the source; built, from /assets/:
    // tests/qa-maths.spec.ts.
    const sheet = /<link rel="stylesheet" href="[^"]*\/katex\.min[^"]*\.css"\/>/g;
    expect(head, path).not.toMatch(sheet);
    expect(body.match(sheet), path).toHaveLength(1);
    expect(body.indexOf('katex.min'), path).toBeLessThan(body.indexOf('class="post-text'));
    expect(page.text, path).not.toContain('as="font"');
    const served = servedData(page.text).data as { questions?: Question[]; question?: Question };
    const read = served.question ?? served.questions!.find((q) => q.id === question.id)!;
    expect(read.html).toContain('<code class="language-java hljs">');
    expect(read.answers[0]!.html).toContain('<span class="katex-display" tabindex="0">');
  }
  // A page without maths does not load KaTeX's style sheet.
  const page = await visitor.get(questionPath(plain.id));
  expect(page.text).toContain('<p>Just words, and <code>code</code> inline.</p>');
  expect(page.text).not.toContain('katex');
});

test('a post that tries script, links to javascript: or maths that links renders inert, in the page and its data', async () => {
  const question = await ask(
    'Inert?',
    '<script>alert(1)</script>\n\n[x](javascript:alert(2)) $\\href{javascript:alert(3)}{y}$ $\\htmlClass{a}{b}$ <img src=x onerror=alert(4)>',
  );
  for (const path of ['/qa', questionPath(question.id)]) {
    const page = await visitor.get(path);
    expect(page.text, path).not.toMatch(/<script>alert|href="javascript:|<img src=x|class="a"/);
    expect(page.text, path).toContain('&#x3C;script>alert(1)&#x3C;/script>');
    expect(page.text, path).toContain(
      '<span class="math-error" title="Not shown as maths: \\href is not allowed here">',
    );
    const served = servedData(page.text).data as { questions?: Question[]; question?: Question };
    const read = served.question ?? served.questions!.find((q) => q.id === question.id)!;
    expect(read.html, path).not.toMatch(/<script|href="javascript:|<img/);
  }
});

test("a signed-in user gets a question's page rendered for them, with their vote, never kept for others", async () => {
  const question = await ask('Is Big-O the worst case?', 'Or the average?');
  expect(
    (
      await student.request(`/api/questions/${question.id}/vote`, {
        method: 'PUT',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ value: 1 }),
      })
    ).status,
  ).toBe(200);

  const page = await student.get(questionPath(question.id));
  expect(page.status).toBe(200);
  expect(page.headers.get('cache-control')).toBe('private, no-cache');
  expect(page.text).toContain(`<meta name="${pageUserMeta}"`);
  expect(page.text).toContain('Thandi Mokoena');
  expect((servedData(page.text).data as { question: Question }).question.myVote).toBe(1);
  expect(page.text).toContain('aria-pressed="true"');

  // A visitor at the same address right after gets the visitors' page: no user, no vote pressed.
  const seen = await visitor.get(questionPath(question.id));
  expect(seen.text).not.toContain(pageUserMeta);
  expect(seen.text).not.toContain('aria-pressed="true"');
  expect(seen.headers.get('cache-control')).toBe('no-cache');
});

test('a signed-in user keeps the board rendered at build time for their role', async () => {
  const page = await student.get('/qa');
  expect(page.status).toBe(200);
  expect(page.text).toContain('<!-- qa.student.html -->');
});

test("a renamed author's new name shows on the pages kept for visitors, not the name they were kept with", async () => {
  const account = await createVerifiedUser(server, { name: 'Ayanda Zulu' });
  const author = await logIn(server, account);
  const response = await author.post('/api/questions', {
    id: crypto.randomUUID(),
    title: 'Why does my recursion never stop?',
    text: 'No base case, I think.',
  });
  expect(response.status).toBe(201);
  const question = response.body as Question;
  // Kept for visitors under the board's version.
  for (const path of ['/qa', questionPath(question.id)])
    expect((await visitor.get(path)).text).toContain('Ayanda Zulu');

  expect((await author.put('/api/me/name', { name: 'Ayanda Zulu-Khumalo' })).status).toBe(200);
  for (const path of ['/qa', questionPath(question.id)]) {
    const page = await visitor.get(path);
    expect(page.text, path).toContain('Ayanda Zulu-Khumalo');
    expect(page.text.replaceAll('Ayanda Zulu-Khumalo', ''), path).not.toContain('Ayanda Zulu');
  }
});
