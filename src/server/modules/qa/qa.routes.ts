import { Hono, type Context } from 'hono';
import type { Me } from '../../../common/session.ts';
import { positionSchema } from '../../../common/position-schema.ts';
import { z } from '../../../common/zod.ts';
import {
  acceptAnswerInputSchema,
  followInputSchema,
  answerInputSchema,
  askQuestionInputSchema,
  endorseInputSchema,
  qaLimits,
  qaMessages,
  voteInputSchema,
} from '../../../common/qa.ts';
import { checkFirst, type SessionEnv } from '../../auth/auth.middleware.ts';
import type { Deps } from '../../deps.ts';
import { answerJson, personal, revalidatePrivately } from '../../http/etag.ts';
import { jsonBody, queryOf } from '../../http/json-body.ts';
import { offlineChanges } from '../../http/offline-changes.ts';
import { syncedTo } from '../../http/synced-to.ts';
import { postBody, photosOf } from './qa.post-body.ts';
import {
  acceptAnswer,
  getFollowing,
  setFollowing,
  answerQuestion,
  askQuestion,
  deleteAnswer,
  deleteQuestion,
  endorseAnswer,
  findSimilarQuestions,
  getQuestion,
  listQuestionChanges,
  listMyVotes,
  listRevealedAuthors,
  listQuestions,
  readBoardPosition,
  readPhoto,
  requireSignedIn,
  voteOnQuestion,
} from './qa.usecases.ts';

/** `?since=` asks for changes; otherwise `?q=` and `?cursor=` ask for a page of the board. */
const listQuerySchema = z
  .strictObject({
    since: positionSchema.optional(),
    q: z.string().max(200, 'The search can be at most 200 characters.').optional(),
    cursor: z.string().max(500).optional(),
    /** A module's slug, or `other` (common/qa.ts `otherModule`). */
    module: z.string().min(1).max(100).optional(),
  })
  .refine(
    (v) => v.since === undefined || (v.q === undefined && v.cursor === undefined && v.module === undefined),
    'Ask for changes (since) or for a page (q, module, cursor), not both.',
  );

const similarQuerySchema = z.strictObject({ title: z.string().max(qaLimits.titleMax) });

/** `/api/questions`: the Q&A board. Anyone reads; the usecases decide who may write. */
export function createQaRoutes(deps: Deps) {
  /** A signed-in reader's answer holds their own votes: no cache may keep it. */
  const readAs = <E extends SessionEnv>(c: Context<E>): Me | undefined => {
    if (c.get('me')) c.header('cache-control', 'no-store');
    return c.get('me');
  };
  // A visitor's post is refused with the spec's words whatever its body (spec §5); the usecase checks again.
  const signedIn = (message: string) => checkFirst((me) => requireSignedIn(me, message));
  // Before everything else: a change queued offline may be another account's, or refused before.
  const queued = offlineChanges(deps);

  return (
    new Hono<SessionEnv>()
      .use(syncedTo(() => readBoardPosition(deps)))
      // Two answers from one route: `hc` types the body as either, and the client tells them apart by `deleted`.
      .get('/', queryOf(listQuerySchema), async (c) => {
        const { since, ...page } = c.req.valid('query');
        // A signed-in reader's copy holds their own votes.
        c.header('cache-control', c.get('me') ? personal : revalidatePrivately);
        if (since !== undefined) return answerJson(c, await listQuestionChanges(deps, c.get('me'), since));
        return answerJson(c, await listQuestions(deps, c.get('me'), page));
      })
      // Before `/:id`, like my-votes. Public like the board: titles and answer counts only, never an author.
      .get('/similar', queryOf(similarQuerySchema), async (c) => {
        c.header('cache-control', revalidatePrivately);
        return answerJson(c, await findSimilarQuestions(deps, c.req.valid('query').title));
      })
      // Before `/:id`, which would take "my-votes" for a question id.
      .get('/revealed', async (c) => {
        c.header('cache-control', personal);
        return answerJson(c, await listRevealedAuthors(deps, c.get('me')));
      })
      .get('/my-votes', async (c) => {
        c.header('cache-control', personal);
        return answerJson(c, await listMyVotes(deps, c.get('me')));
      })
      .get('/:id', async (c) => c.json(await getQuestion(deps, readAs(c), c.req.param('id'))))
      .post('/', queued, signedIn(qaMessages.askSignedOut), postBody(askQuestionInputSchema), async (c) => {
        const { question, created } = await askQuestion(deps, c.get('me'), c.req.valid('json'), photosOf(c));
        return c.json(question, created ? 201 : 200);
      })
      .post('/:id/answers', queued, signedIn(qaMessages.answerSignedOut), postBody(answerInputSchema), async (c) => {
        const { answer, created } = await answerQuestion(
          deps,
          c.get('me'),
          c.req.param('id'),
          c.req.valid('json'),
          photosOf(c),
        );
        return c.json(answer, created ? 201 : 200);
      })
      .put('/:id/vote', queued, signedIn(qaMessages.voteSignedOut), jsonBody(voteInputSchema), async (c) =>
        c.json(await voteOnQuestion(deps, c.get('me'), c.req.param('id'), c.req.valid('json').value)),
      )
      .get('/:id/follow', async (c) => {
        c.header('cache-control', 'no-store');
        return c.json(await getFollowing(deps, c.get('me'), c.req.param('id')));
      })
      .put('/:id/follow', jsonBody(followInputSchema), async (c) =>
        c.json(await setFollowing(deps, c.get('me'), c.req.param('id'), c.req.valid('json').following)),
      )
      .put('/:id/accepted-answer', jsonBody(acceptAnswerInputSchema), async (c) =>
        c.json(await acceptAnswer(deps, c.get('me'), c.req.param('id'), c.req.valid('json'))),
      )
      .put('/:id/answers/:answerId/endorsement', jsonBody(endorseInputSchema), async (c) =>
        c.json(
          await endorseAnswer(
            deps,
            c.get('me'),
            c.req.param('id'),
            c.req.param('answerId'),
            c.req.valid('json').endorsed,
          ),
        ),
      )
      .delete('/:id', async (c) => {
        await deleteQuestion(deps, c.get('me'), c.req.param('id'));
        return c.json({ deleted: true });
      })
      .delete('/:id/answers/:answerId', async (c) => {
        await deleteAnswer(deps, c.get('me'), c.req.param('id'), c.req.param('answerId'));
        return c.json({ deleted: true });
      })
  );
}

/**
 * `/api/photos/:id` and `/api/photos/:id/thumb`: a photo of a post, to whoever may see the post (readPhoto). Its
 * bytes never change, but it goes with its post: kept a day by the reader's browser only, never by a shared cache.
 * Its type is the one its bytes were checked to be; `nosniff` and the API's CSP come with every answer
 * (node-server.ts), widened here just enough for the browser to show the image itself when it is opened.
 */
export function createPhotoRoutes(deps: Deps) {
  const serve = (size: 'full' | 'thumb') => async (c: Context) => {
    const photo = await readPhoto(deps, c.req.param('id') ?? '', size);
    return c.body(photo.bytes as Uint8Array<ArrayBuffer>, 200, {
      'content-type': photo.contentType,
      'content-length': String(photo.bytes.byteLength),
      'cache-control': 'private, max-age=86400',
      etag: `"${photo.id}-${size}"`,
      'content-security-policy':
        "default-src 'none'; img-src 'self'; style-src 'unsafe-inline'; frame-ancestors 'none'",
      'cross-origin-resource-policy': 'same-origin',
    });
  };
  return new Hono().get('/:id', serve('full')).get('/:id/thumb', serve('thumb'));
}
