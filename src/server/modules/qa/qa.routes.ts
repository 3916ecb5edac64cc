import { Hono, type Context } from 'hono';
import { z } from '../../../common/zod.ts';
import { acceptAnswerInputSchema, answerInputSchema, askQuestionInputSchema, voteInputSchema } from '../../../common/qa.ts';
import { fieldErrors } from '../../../common/validation.ts';
import type { SessionReader } from '../../auth/auth.session.ts';
import type { Deps } from '../../deps.ts';
import { createValidationError } from '../../http/errors.ts';
import { readJsonBody } from '../../http/json-body.ts';
import {
  acceptAnswer,
  answerQuestion,
  askQuestion,
  deleteAnswer,
  deleteQuestion,
  getQuestion,
  listQuestionChanges,
  listQuestions,
  voteOnQuestion,
} from './qa.usecases.ts';

/** `?since=` asks for changes; otherwise `?q=` and `?cursor=` ask for a page of the board. */
const listQuerySchema = z
  .strictObject({
    since: z.coerce.number().int().min(0).max(2 ** 31 - 1).optional(),
    q: z.string().max(200, 'The search can be at most 200 characters.').optional(),
    cursor: z.string().max(500).optional(),
  })
  .refine((v) => v.since === undefined || (v.q === undefined && v.cursor === undefined), 'Ask for changes (since) or for a page (q, cursor), not both.');

function readListQuery(c: Context) {
  const parsed = listQuerySchema.safeParse(c.req.query());
  if (!parsed.success) throw createValidationError(fieldErrors(parsed.error));
  return parsed.data;
}

/** `/api/questions`: the Q&A board. Anyone reads; the usecases decide who may write. */
export function createQaRoutes(deps: Deps, readSession: SessionReader) {
  /** A signed-in reader's answer holds their own votes: no cache may keep it. */
  const readAs = async (c: Context) => {
    const me = await readSession(c);
    if (me) c.header('cache-control', 'no-store');
    return me;
  };

  return new Hono()
    .get('/', async (c) => {
      const { since, ...page } = readListQuery(c);
      const me = await readAs(c);
      return c.json(since === undefined ? await listQuestions(deps, me, page) : await listQuestionChanges(deps, me, since));
    })
    .get('/:id', async (c) => c.json(await getQuestion(deps, await readAs(c), c.req.param('id'))))
    .post('/', async (c) => {
      const { question, created } = await askQuestion(deps, await readSession(c), await readJsonBody(c, askQuestionInputSchema));
      return c.json(question, created ? 201 : 200);
    })
    .post('/:id/answers', async (c) => {
      const { answer, created } = await answerQuestion(deps, await readSession(c), c.req.param('id'), await readJsonBody(c, answerInputSchema));
      return c.json(answer, created ? 201 : 200);
    })
    .put('/:id/vote', async (c) => {
      const { value } = await readJsonBody(c, voteInputSchema);
      return c.json(await voteOnQuestion(deps, await readSession(c), c.req.param('id'), value));
    })
    .put('/:id/accepted-answer', async (c) =>
      c.json(await acceptAnswer(deps, await readSession(c), c.req.param('id'), await readJsonBody(c, acceptAnswerInputSchema))),
    )
    .delete('/:id', async (c) => {
      await deleteQuestion(deps, await readSession(c), c.req.param('id'));
      return c.json({ deleted: true });
    })
    .delete('/:id/answers/:answerId', async (c) => {
      await deleteAnswer(deps, await readSession(c), c.req.param('id'), c.req.param('answerId'));
      return c.json({ deleted: true });
    });
}
