import type { Position } from '../../../common/positions.ts';
import {
  qaMessages,
  type Answer,
  type Author,
  type Question,
  type QuestionChanges,
  type QuestionPage,
  type VoteValue,
} from '../../../common/qa.ts';
import { apiFetch, readJson } from '../../lib/api.ts';
import {
  firstCursor,
  ifNoneMatch,
  readRevalidated,
  readSent,
  syncedToOf,
  type Revalidated,
} from '../../lib/revalidated.ts';
import { client } from '../../lib/api-client.ts';
import { defineLocalTable, type LocalTransaction } from '../../offline/db.ts';
import { defineMutation, defineSource, engine, type PullResult } from '../../offline/engine.ts';

/**
 * The Q&A board on the local-first engine (src/client/offline): the questions and answers seen on this device
 * (public: the board is readable by visitors), the signed-in user's own votes, the sources that keep them
 * fresh, and the three writes that work offline: ask, answer, vote.
 */

/**
 * What a post queued with photos shows until the server has it: the thumbnails made on this device, as data
 * URLs (the server's copies replace the row once it is acknowledged). A post's `html` is the server's rendering of
 * its text (decision 0060): absent while the post waits to be sent, and on rows stored before the server sent it;
 * the board then renders the text on the device.
 */
interface LocalPreviews {
  previews?: string[];
}
type ServerHtml = { html?: string | undefined };
/**
 * A question as stored here: its answers live in their own table, the reader's vote in `myVotes`, and who asked an
 * anonymous one (for those who may know) in `qaRevealed`, which a log-out clears: the board's own rows outlive the
 * session, so they never name an anonymous asker (issue 39 §3).
 */
export type QuestionRow = Omit<Question, 'answers' | 'myVote' | 'html' | 'revealed'> & ServerHtml & LocalPreviews;
/** Who asked an anonymous question, by its id, for the signed-in tutor, admin or the asker herself. */
export interface RevealedRow {
  id: string;
  author: Author;
  mine: boolean;
}
export type AnswerRow = Omit<Answer, 'html'> & ServerHtml & LocalPreviews;
export interface MyVoteRow {
  /** The question's id. */
  id: string;
  value: 1 | -1;
}
/** Where "Load more" goes on from: the oldest question the board has paged in, and the server's cursor after it. */
export interface BoardPagingRow {
  id: 'board';
  nextCursor: string | null;
  oldestCreatedAt: string | null;
}

export const questionsTable = defineLocalTable<QuestionRow>({
  name: 'questions',
  schema: 'id, createdAt',
  version: 1,
  scope: 'public',
});
export const answersTable = defineLocalTable<AnswerRow>({
  name: 'answers',
  schema: 'id, questionId',
  version: 1,
  scope: 'public',
});
export const myVotesTable = defineLocalTable<MyVoteRow>({ name: 'myVotes', schema: 'id', version: 1, scope: 'user' });
export const revealedTable = defineLocalTable<RevealedRow>({
  name: 'qaRevealed',
  schema: 'id',
  version: 1,
  scope: 'user',
});
export const boardPagingTable = defineLocalTable<BoardPagingRow>({
  name: 'qaPaging',
  schema: 'id',
  version: 1,
  scope: 'public',
});

const toRow = ({
  id,
  title,
  text,
  html,
  author,
  createdAt,
  upvotes,
  downvotes,
  acceptedAnswerId,
  photos,
  module,
  anonymous,
  version,
}: Question): QuestionRow => ({
  id,
  title,
  text,
  html,
  author,
  createdAt,
  upvotes,
  downvotes,
  acceptedAnswerId,
  photos,
  module,
  anonymous,
  version,
});

const revealedOf = (questions: Question[]): RevealedRow[] =>
  questions.flatMap((q) => (q.revealed ? [{ id: q.id, ...q.revealed }] : []));

/** The server's collection the board's versions (`Synced-To`, `since`) count. */
const collection = 'questions';

/**
 * What a list of questions from the server changes here: the questions, all their answers (held whole: an
 * answer the admin deleted is gone from the list, so the merge deletes it here too), and, for a signed-in
 * reader, their own votes (the base that a pending vote is re-applied on; also whole: no vote is a vote of 0).
 */
export function rowsOf(
  questions: Question[],
  deleted: string[] = [],
): Required<Pick<PullResult, 'put' | 'remove' | 'children'>> {
  const signedIn = engine.user() !== null;
  return {
    put: {
      questions: questions.map(toRow),
      answers: questions.flatMap((q) => q.answers),
      ...(signedIn
        ? {
            myVotes: questions
              .filter((q) => q.myVote !== 0)
              .map((q): MyVoteRow => ({ id: q.id, value: q.myVote === 1 ? 1 : -1 })),
            qaRevealed: revealedOf(questions),
          }
        : {}),
    },
    remove: { questions: deleted },
    children: {
      answers: { parent: 'questions', key: 'questionId' },
      ...(signedIn
        ? { myVotes: { parent: 'questions', key: 'id' }, qaRevealed: { parent: 'questions', key: 'id' } }
        : {}),
    },
  };
}

const questions = client.api.questions;
/** hc puts path parameters into the URL as they are. */
const question = (id: string) => ({ param: { id: encodeURIComponent(id) } });

/**
 * A page of the board (`GET /api/questions?q=&cursor=`). The route answers changes instead when asked with
 * `since`, so its body is typed as either: `deleted` tells them apart.
 */
export async function fetchQuestionPage(
  query: { q?: string; cursor?: string; module?: string },
  signal?: AbortSignal,
): Promise<QuestionPage & { syncedTo: Position | null }> {
  const response = await questions.$get({ query }, { init: { signal } });
  const body = await readJson(response);
  if ('deleted' in body) throw new Error('Asked for a page of questions, the server sent changes.');
  return { ...body, syncedTo: syncedToOf(response) };
}

/** One question with its answers (`GET /api/questions/:id`): one a link leads to that the device does not hold. */
export async function fetchQuestion(id: string): Promise<QuestionPage & { syncedTo: Position | null }> {
  const response = await questions[':id'].$get(question(id));
  const body = await readJson(response);
  return { questions: [body], nextCursor: null, syncedTo: syncedToOf(response) };
}

/** A page the board fetched by itself ("Load more", a search), merged as a pull's answer is. */
export function mergeQuestionPage(page: QuestionPage & { syncedTo: Position | null }, fetchedAt: number) {
  return engine.mergeRows({ ...rowsOf(page.questions), syncedTo: page.syncedTo, collection }, fetchedAt);
}

/** The changes after version `since` (`GET /api/questions?since=`), unless the answer is still the one `etag` names. */
async function fetchQuestionChanges(
  since: string,
  etag: string | null,
  signal: AbortSignal,
): Promise<Revalidated<QuestionChanges>> {
  const answer = await readRevalidated(
    await questions.$get({ query: { since } }, { init: { signal }, headers: ifNoneMatch(etag) }),
  );
  if (answer.notModified) return answer;
  if (!('deleted' in answer.body)) throw new Error('Asked for changes to the questions, the server sent a page.');
  return { ...answer, body: answer.body };
}

/**
 * The board: the newest page the first time, then every change since the last version seen (new questions,
 * answers, votes, deletions), which is also how a device catches up after a day offline. Live notices on
 * `questions` run it.
 */
export const questionsSource = defineSource({
  name: 'qa.questions',
  tables: ['questions', 'answers', 'myVotes', 'qaPaging', 'qaRevealed'],
  needsUser: false,
  listensTo: ['questions'],
  collection,
  pull: async ({ cursor, signal, etag }) => {
    if (cursor === null) {
      const page = await fetchQuestionPage({}, signal);
      const rows = rowsOf(page.questions);
      const paging: BoardPagingRow = {
        id: 'board',
        nextCursor: page.nextCursor,
        oldestCreatedAt: page.questions.at(-1)?.createdAt ?? null,
      };
      return {
        ...rows,
        put: { ...rows.put, qaPaging: [paging] },
        cursor: firstCursor(page.syncedTo, page.questions),
        syncedTo: page.syncedTo,
      };
    }
    // The position's text as the server wrote it: on Firestore it is not a number (0027).
    const answer = await fetchQuestionChanges(cursor, etag, signal);
    if (answer.notModified) return answer;
    const changes = answer.body;
    return {
      ...rowsOf(changes.questions, changes.deleted),
      cursor: String(changes.version),
      more: changes.more,
      etag: answer.etag,
      syncedTo: answer.syncedTo,
    };
  },
});

/** The signed-in user's votes, whole: a device that has just logged in shows their votes on every question it holds. */
export const myVotesSource = defineSource({
  name: 'qa.myVotes',
  tables: ['myVotes'],
  needsUser: true,
  listensTo: [],
  collection,
  pull: async ({ signal, etag }) => {
    const answer = await readRevalidated(
      await questions['my-votes'].$get({}, { init: { signal }, headers: ifNoneMatch(etag) }),
    );
    if (answer.notModified) return answer;
    return {
      put: { myVotes: answer.body.votes.map((v): MyVoteRow => ({ id: v.questionId, value: v.value })) },
      replace: true,
      etag: answer.etag,
      syncedTo: answer.syncedTo,
    };
  },
});

/** Who asked the anonymous questions the user may know of, whole: as `myVotesSource`, for a device just logged in. */
export const revealedSource = defineSource({
  name: 'qa.revealed',
  tables: ['qaRevealed'],
  needsUser: true,
  listensTo: ['questions'],
  collection,
  pull: async ({ signal, etag }) => {
    const answer = await readRevalidated(
      await questions.revealed.$get({}, { init: { signal }, headers: ifNoneMatch(etag) }),
    );
    if (answer.notModified) return answer;
    return {
      put: { qaRevealed: answer.body.revealed.map(({ questionId, ...r }): RevealedRow => ({ id: questionId, ...r })) },
      replace: true,
      etag: answer.etag,
      syncedTo: answer.syncedTo,
    };
  },
});

// ---------------------------------------------------------------------------------------------------------
// Writes that work offline. Payloads are versioned: a tab of an older build may have queued them (rule 8).

/** `module` and `anonymous` came with issue 39 §3: a payload an older build queued has neither ("Other", named). */
export interface AskPayload {
  id: string;
  title: string;
  text: string;
  author: Author;
  createdAt: string;
  module?: { slug: string; name: string } | null;
  anonymous?: boolean;
}

/** What the server sends for an ask (the module by its slug). */
const askBody = (p: AskPayload) => ({
  id: p.id,
  title: p.title,
  text: p.text,
  module: p.module?.slug ?? null,
  anonymous: p.anonymous ?? false,
});

export interface AnswerPayload {
  id: string;
  questionId: string;
  text: string;
  author: Author;
  createdAt: string;
  /** The asker answering her own anonymous question: the waiting answer names nobody either (issue 39 §3). */
  byAsker?: boolean;
}

/** A photo resized on this device (photo-resize.ts), queued with its post: the bytes sent, and its preview. */
export interface LocalPhoto {
  id: string;
  full: Blob;
  thumb: Blob;
  /** The thumbnail as a data URL, shown on the post while it waits (the pages' CSP allows data: images). */
  preview: string;
}

export interface AskWithPhotosPayload extends AskPayload {
  photos: LocalPhoto[];
}

export interface AnswerWithPhotosPayload extends AnswerPayload {
  photos: LocalPhoto[];
}

export interface VotePayload {
  questionId: string;
  value: VoteValue;
}

/** The server's copy of a question replaces the optimistic one, with its answers and the reader's vote. */
async function storeQuestion(question: Question, tx: LocalTransaction) {
  await questionsTable.in(tx).put(toRow(question));
  await answersTable.in(tx).bulkPut(question.answers);
  if (question.revealed) await revealedTable.in(tx).put({ id: question.id, ...question.revealed });
  else await revealedTable.in(tx).delete(question.id);
  if (question.myVote === 0) await myVotesTable.in(tx).delete(question.id);
  else await myVotesTable.in(tx).put({ id: question.id, value: question.myVote });
}

/** The question a payload is about, as a dependency names it. */
const questionRow = (questionId: string) => ({ table: 'questions', id: questionId });

/**
 * A post with photos goes as a form (the server's qa.post-body.ts): the post, the photos' ids, then each photo
 * and its thumbnail, in order. Up to about 1.4 MB: it may take minutes on a slow connection, so its time limit
 * grows with its size (8 KB/s at the least) before a timeout sends it again.
 */
async function sendWithPhotos(path: string, post: object, photos: readonly LocalPhoto[], headers: HeadersInit) {
  const form = new FormData();
  form.set('post', JSON.stringify(post));
  form.set('photoIds', JSON.stringify(photos.map((p) => p.id)));
  for (const photo of photos) {
    form.append('photo', photo.full, `${photo.id}.jpg`);
    form.append('thumb', photo.thumb, `${photo.id}-thumb.jpg`);
  }
  const bytes = photos.reduce((sum, p) => sum + p.full.size + p.thumb.size, 0);
  // 15 s, apiFetch's own limit (not imported: the entry chunk would grow by keeping it as a name), and 1 s per 8 KB.
  return apiFetch(path, { method: 'POST', body: form, headers, timeoutMs: 15_000 + Math.ceil(bytes / 8) });
}

const askSpec = {
  version: 1,
  collection,
  target: (p: AskPayload) => ({ table: 'questions', id: p.id }),
  // The acknowledgement stores the question and the reader's vote on it (storeQuestion).
  touches: (p: AskPayload) => [questionRow(p.id), { table: 'myVotes', id: p.id }, { table: 'qaRevealed', id: p.id }],
  describe: (p: AskPayload) => ({ label: `Question: ${p.title}`, href: `/qa#q-${p.id}` }),
  apply: async (p: AskPayload | AskWithPhotosPayload, tx: LocalTransaction) => {
    // Once the server's copy is here (sent, but the answer lost), it is the truth.
    if (await questionsTable.in(tx).get(p.id)) return;
    // Anonymous: the board's row, kept past a log-out, names nobody even on the asker's own device.
    const anonymous = p.anonymous === true;
    if (anonymous) await revealedTable.in(tx).put({ id: p.id, author: p.author, mine: true });
    await questionsTable.in(tx).put({
      id: p.id,
      title: p.title,
      text: p.text,
      author: anonymous ? { id: null, name: qaMessages.anonymousStudent, role: 'student' } : p.author,
      anonymous,
      module: p.module ?? null,
      createdAt: p.createdAt,
      upvotes: 0,
      downvotes: 0,
      acceptedAnswerId: null,
      photos: [],
      ...('photos' in p && { previews: p.photos.map((photo) => photo.preview) }),
      version: 0,
    });
  },
  acknowledge: async (_p: AskPayload, question: Question, tx: LocalTransaction) => storeQuestion(question, tx),
  revert: async (p: AskPayload, tx: LocalTransaction) => {
    await questionsTable.in(tx).delete(p.id);
    await revealedTable.in(tx).delete(p.id);
  },
};

export const askQuestion = defineMutation<AskPayload, Question>({
  name: 'qa.ask',
  ...askSpec,
  send: async (p, { headers }) => readSent(await questions.$post({ json: askBody(p) }, { headers })),
});

/** A question with photos: a mutation of its own, so a tab of a build before photos leaves it for a newer one. */
export const askQuestionWithPhotos = defineMutation<AskWithPhotosPayload, Question>({
  name: 'qa.askWithPhotos',
  ...askSpec,
  send: async (p, { headers }) => {
    const sent = await readSent(await sendWithPhotos('/api/questions', askBody(p), p.photos, headers));
    return { ...sent, result: sent.result as Question };
  },
});

const answerSpec = {
  version: 1,
  collection,
  target: (p: AnswerPayload) => ({ table: 'answers', id: p.id }),
  describe: (p: AnswerPayload) => ({
    label: `Answer: ${p.text.length > 60 ? `${p.text.slice(0, 60)}…` : p.text}`,
    href: `/qa#q-${p.questionId}`,
  }),
  // An answer to a question still waiting goes after it, and waits with it if the question is refused.
  after: (p: AnswerPayload) => questionRow(p.questionId),
  apply: async (p: AnswerPayload | AnswerWithPhotosPayload, tx: LocalTransaction) => {
    if (await answersTable.in(tx).get(p.id)) return;
    await answersTable.in(tx).put({
      id: p.id,
      questionId: p.questionId,
      text: p.text,
      author: p.byAsker ? { id: null, name: qaMessages.anonymousStudent, role: 'student' } : p.author,
      ...(p.byAsker && { byAsker: true }),
      createdAt: p.createdAt,
      photos: [],
      ...('photos' in p && { previews: p.photos.map((photo) => photo.preview) }),
    });
  },
  acknowledge: async (_p: AnswerPayload, answer: Answer, tx: LocalTransaction) => {
    await answersTable.in(tx).put(answer);
  },
  revert: async (p: AnswerPayload, tx: LocalTransaction) => {
    await answersTable.in(tx).delete(p.id);
  },
};

export const answerQuestion = defineMutation<AnswerPayload, Answer>({
  name: 'qa.answer',
  ...answerSpec,
  send: async (p, { headers }) =>
    readSent(
      await questions[':id'].answers.$post(
        { ...question(p.questionId), json: { id: p.id, text: p.text } },
        { headers },
      ),
    ),
});

/** An answer with photos (as `askQuestionWithPhotos`). */
export const answerQuestionWithPhotos = defineMutation<AnswerWithPhotosPayload, Answer>({
  name: 'qa.answerWithPhotos',
  ...answerSpec,
  send: async (p, { headers }) => {
    const path = `/api/questions/${encodeURIComponent(p.questionId)}/answers`;
    const sent = await readSent(await sendWithPhotos(path, { id: p.id, text: p.text }, p.photos, headers));
    return { ...sent, result: sent.result as Answer };
  },
});

const contribution = (value: number) => ({ up: value === 1 ? 1 : 0, down: value === -1 ? 1 : 0 });

export const voteOnQuestion = defineMutation<VotePayload, Question>({
  name: 'qa.vote',
  version: 1,
  collection,
  target: (p) => ({ table: 'myVotes', id: p.questionId }),
  // The acknowledgement stores the question's counts as well as the vote.
  touches: (p) => [{ table: 'myVotes', id: p.questionId }, questionRow(p.questionId)],
  describe: (p) => ({
    label: p.value === 0 ? 'Vote withdrawn' : p.value === 1 ? 'Upvote' : 'Downvote',
    href: `/qa#q-${p.questionId}`,
  }),
  after: (p) => questionRow(p.questionId),
  // Counted from the vote this device holds (the server's, after each refresh): applied again on top of a
  // refresh it changes nothing twice.
  apply: async (p, tx) => {
    const [votes, questions] = [myVotesTable.in(tx), questionsTable.in(tx)];
    const before = (await votes.get(p.questionId))?.value ?? 0;
    if (before === p.value) return;
    const question = await questions.get(p.questionId);
    if (question) {
      const [was, now] = [contribution(before), contribution(p.value)];
      await questions.put({
        ...question,
        upvotes: question.upvotes - was.up + now.up,
        downvotes: question.downvotes - was.down + now.down,
      });
    }
    if (p.value === 0) await votes.delete(p.questionId);
    else await votes.put({ id: p.questionId, value: p.value });
  },
  send: async (p, { headers }) =>
    readSent(await questions[':id'].vote.$put({ ...question(p.questionId), json: { value: p.value } }, { headers })),
  acknowledge: async (_p, question, tx) => storeQuestion(question, tx),
});
