import { Hono, type Context } from 'hono';
import type { Me } from '../../../common/session.ts';
import type { SessionEnv } from '../../auth/auth.middleware.ts';
import type { Deps } from '../../deps.ts';
import { sendRendered, type PageRenderer, type RenderedDocument } from '../../http/rendered-pages.ts';
import { formatPosition } from '../../../common/positions.ts';
import { findQuestion, listQuestions, readBoardPosition } from './qa.usecases.ts';

/** Visitors' pages kept, by path: the board and the questions opened most lately. */
const keptPages = 200;

/**
 * The board's pages, rendered by the server for each request (docs/decisions/0024-the-board-rendered-per-request.md):
 * a visitor's `/qa` with its first page of questions, and `/qa/<id>`, one question with its answers (404 when
 * there is none), for a visitor or the session's user. A signed-in user's `/qa` is left to the page rendered
 * at build time for their role (decision 0013), which the device's own copy fills in.
 *
 * What a visitor sees is the same for every visitor until the board changes: it is kept, with its compressed
 * copies, under the board's version, read before the questions so that a page is never kept under a newer
 * version than its content. Without a build (the CLI, the tests that bring none), the next route answers.
 */
export function createQaPages(deps: Deps, renderPage: PageRenderer) {
  /** A page that fails to render is logged, and the next route sends the app to render it in the browser. */
  const render: PageRenderer = async (...args) => {
    try {
      return await renderPage(...args);
    } catch (error) {
      deps.logger.error({ err: error, path: args[1] }, 'a page could not be rendered: the shell was sent');
      return undefined;
    }
  };
  const kept = new Map<
    string,
    { version: string; page: Promise<{ document: RenderedDocument; found: boolean } | undefined> }
  >();

  /** A visitor's page at `path`: kept while the board's version is the same; made by `make` otherwise. */
  async function forVisitors(
    path: string,
    make: () => Promise<{ document: RenderedDocument; found: boolean } | undefined>,
  ) {
    const version = formatPosition(await readBoardPosition(deps));
    const known = kept.get(path);
    if (known?.version === version) {
      // Most lately used last: the first key is the one to drop.
      kept.delete(path);
      kept.set(path, known);
      return known.page;
    }
    const page = make();
    kept.set(path, { version, page });
    if (kept.size > keptPages) kept.delete(kept.keys().next().value!);
    // A failure is not kept: the next request tries again.
    page.catch(() => kept.get(path)?.page === page && kept.delete(path));
    return page;
  }

  const questionPage = async (path: string, id: string, me: Me | undefined) => {
    const question = await findQuestion(deps, me, id);
    const document = await render('question', path, { question: question ?? null }, me);
    return document && { document, found: question !== undefined };
  };

  /** The browser's own spelling of the path (Hono's decodes it), which the app compares with its location. */
  const pathOf = (c: Context) => new URL(c.req.url).pathname;

  return new Hono<SessionEnv>()
    .get('/qa', async (c, next) => {
      // A board filtered by module is the app's to fill in, from the device or the server (issue 39 §3).
      if (c.get('me') || c.req.query('module') !== undefined) return next();
      const page = await forVisitors('/qa', async () => {
        const document = await render('board', '/qa', await listQuestions(deps, undefined, {}));
        return document && { document, found: true };
      });
      return page ? sendRendered(c, page.document, { status: 200, personal: false }) : next();
    })
    .get('/qa/:id', async (c, next) => {
      const me = c.get('me');
      const path = pathOf(c);
      const id = c.req.param('id');
      const page = me
        ? await questionPage(path, id, me)
        : await forVisitors(path, () => questionPage(path, id, undefined));
      if (!page) return next();
      return sendRendered(c, page.document, { status: page.found ? 200 : 404, personal: me !== undefined });
    });
}
