import { useCallback, useEffect, useMemo, useState } from 'react';
import { byCodeUnits } from '../../../common/locale.ts';
import {
  otherModule,
  qaMessages,
  type Question,
  type QuestionModule,
  type QuestionPage,
  type VoteValue,
} from '../../../common/qa.ts';
import type { Me } from '../../../common/session.ts';
import { useConfirm } from '../../components/confirm-dialog.tsx';
import { ApiError, isOffline, isSessionEnded, readJson } from '../../lib/api.ts';
import { client } from '../../lib/api-client.ts';
import { errorText } from '../../lib/error-text.ts';
import { toast } from '../../lib/toast.ts';
import { discardItem, engine, refreshSource, retryItem, type OutboxItem } from '../../offline/engine.ts';
import { useLocalData, useOutboxItems } from '../../offline/hooks.ts';
import type { LocalDataStatus } from '../../offline/hooks.ts';
import type { AnswerView, PendingState, QaActions, QuestionView } from './qa-view.ts';
import {
  answerQuestion,
  answerQuestionWithPhotos,
  answersTable,
  askQuestion,
  askQuestionWithPhotos,
  boardPagingTable,
  fetchQuestion,
  fetchQuestionPage,
  myVotesTable,
  questionsSource,
  revealedTable,
  type RevealedRow,
  questionsTable,
  mergeQuestionPage,
  voteOnQuestion,
  type AnswerPayload,
  type AnswerRow,
  type AskPayload,
  type AskWithPhotosPayload,
  type LocalPhoto,
  type MyVoteRow,
  type QuestionRow,
} from './qa.sync.ts';

const offlineText = 'You are offline. Connect to the internet to do this.';
// The writes that need the server (hc puts path parameters into the URL as they are: encoded here).
const questionRoute = client.api.questions[':id'];
const matches = (query: string) => {
  const needle = query.toLocaleLowerCase();
  return (q: { title: string; text: string }) =>
    q.title.toLocaleLowerCase().includes(needle) || q.text.toLocaleLowerCase().includes(needle);
};

/** How each of the user's unsent items stands, by the row it targets (`questions:<id>`, `answers:<id>`). */
function pendingByTarget(items: OutboxItem[]) {
  const map = new Map<string, OutboxItem>();
  for (const item of items) {
    const key = `${item.target.table}:${item.target.id}`;
    // A refused item outranks a waiting one on the same row.
    if (!map.has(key) || item.state === 'attention') map.set(key, item);
  }
  return map;
}

/**
 * What the board shows, as one value: a page that renders the cards behind the keystrokes (`useDeferredValue`)
 * defers both lists together, so an answer is never on its question's card and among the stranded at once.
 */
export interface BoardPosts {
  questions: QuestionView[];
  /** The user's unsent answers to questions deleted meanwhile: no card to show them on, but not lost. */
  stranded: AnswerView[];
}

export interface QaBoard {
  status: LocalDataStatus;
  posts: BoardPosts;
  hasMore: boolean;
  loadingMore: boolean;
  /** A search is being asked of the server (its results join what the device already found). */
  searching: boolean;
  loadMore(): void;
  retry(): void;
}

/** What the device holds of questions, for the views below. */
interface Held {
  answers: AnswerRow[];
  votes: MyVoteRow[];
  revealed: RevealedRow[];
}

/**
 * How to show the questions the device holds: each with its answers (oldest first), the reader's vote and the
 * outbox's marks; `stateOf` tells how an item the user wrote stands.
 */
function viewsOf(held: Held, items: OutboxItem[]) {
  const pending = pendingByTarget(items);
  const votes = new Map(held.votes.map((v) => [v.id, v.value]));
  const revealed = new Map(held.revealed.map(({ id, ...r }) => [id, r]));
  const answersByQuestion = new Map<string, AnswerRow[]>();
  for (const answer of [...held.answers].sort((a, b) => byCodeUnits(a.createdAt, b.createdAt))) {
    const list = answersByQuestion.get(answer.questionId);
    if (list) list.push(answer);
    else answersByQuestion.set(answer.questionId, [answer]);
  }
  const stateOf = (table: string, id: string): PendingState | undefined => {
    const item = pending.get(`${table}:${id}`);
    if (!item) return undefined;
    if (item.state !== 'attention') return { state: 'waiting' as const };
    const { title, text } = item.payload as Partial<AskPayload> & AnswerPayload;
    return {
      state: 'attention' as const,
      message: item.error?.message ?? 'The server refused this.',
      typed: { title, text },
    };
  };
  const view = (q: QuestionRow): QuestionView => ({
    ...q,
    myVote: votes.get(q.id) ?? 0,
    revealed: revealed.get(q.id),
    pending: stateOf('questions', q.id),
    answers: (answersByQuestion.get(q.id) ?? []).map((a) => ({ ...a, pending: stateOf('answers', a.id) })),
  });
  return { view, stateOf };
}

/** A question as the server rendered it (its answers come oldest first): nothing of it waits in the outbox. */
const servedView = (question: Question): QuestionView => question;

/**
 * The board as the page shows it, from IndexedDB: newest first, down to the oldest question paged in (or every
 * question on the device that matches a search), with answers, the reader's votes and the outbox's marks. A
 * search also asks the server, for what this device has never seen. `served`: the page the server rendered the
 * board with, shown until the device's copy is read.
 */
export function useQaBoard(query: string, served?: QuestionPage, module?: string): QaBoard {
  const local = useLocalData(
    async () => {
      const [questions, answers, votes, paging, revealed] = await Promise.all([
        questionsTable.orderBy('createdAt').reverse().toArray(),
        answersTable.toArray(),
        myVotesTable.toArray(),
        boardPagingTable.get('board'),
        revealedTable.toArray(),
      ]);
      // Null when the device holds nothing of the board: the engine then tells "never loaded" from "really empty".
      // Answers alone are not nothing: the user's unsent answers to questions deleted meanwhile (`stranded`)
      // must stay on show, to copy or discard, after the last question has gone.
      return questions.length === 0 && answers.length === 0 ? null : { questions, answers, votes, paging, revealed };
    },
    [],
    [questionsSource],
  );
  const items = useOutboxItems();
  const [search, setSearch] = useState<{ query: string; nextCursor: string | null; loading: boolean }>({
    query: '',
    nextCursor: null,
    loading: false,
  });
  const [loadingMore, setLoadingMore] = useState(false);

  // A module's filter asks the server for its newest page too, once (the device may hold none of it yet).
  useEffect(() => {
    if (!module) return;
    const generation = engine.generation();
    fetchQuestionPage({ module })
      .then((page) => mergeQuestionPage(page, generation))
      .catch(() => undefined);
  }, [module]);

  const fetchPage = useCallback(async (params: { q?: string; cursor?: string }) => {
    const generation = engine.generation();
    const page = await fetchQuestionPage(params);
    await mergeQuestionPage(page, generation);
    return page;
  }, []);

  // A search asks the server too, a moment after the typing stops.
  useEffect(() => {
    if (!query) return;
    let current = true;
    const timer = setTimeout(() => {
      setSearch({ query, nextCursor: null, loading: true });
      fetchPage({ q: query })
        .then((page) => current && setSearch({ query, nextCursor: page.nextCursor, loading: false }))
        .catch(() => current && setSearch({ query, nextCursor: null, loading: false }));
    }, 300);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [query, fetchPage]);

  const data = local.data;
  // Until the device's copy is read, the questions the server rendered the page with (decision 0024): the same
  // the browser's first render must show, and what a visitor reads before any script has run.
  const seeded = served !== undefined && !query && !module && !data && local.status !== 'empty';
  const posts = useMemo((): BoardPosts => {
    if (seeded) return { questions: served.questions.map(servedView), stranded: [] };
    if (!data) return { questions: [], stranded: [] };
    const { view, stateOf } = viewsOf(data, items);
    const oldest = data.paging?.oldestCreatedAt;
    const inModule = (q: QuestionRow) => !module || (module === otherModule ? !q.module : q.module?.slug === module);
    const shown =
      query || module
        ? data.questions.filter((q) => inModule(q) && (!query || matches(query)(q)))
        : data.questions.filter(
            (q) =>
              oldest === null ||
              oldest === undefined ||
              q.createdAt >= oldest ||
              stateOf('questions', q.id) !== undefined,
          );
    const onDevice = new Set(data.questions.map((q) => q.id));
    return {
      questions: shown.map(view),
      stranded: data.answers
        .filter((a) => !onDevice.has(a.questionId) && stateOf('answers', a.id) !== undefined)
        .map((a) => ({ ...a, pending: stateOf('answers', a.id) })),
    };
  }, [data, items, query, seeded, served, module]);

  const nextCursor = module
    ? null
    : query
      ? search.query === query
        ? search.nextCursor
        : null
      : seeded
        ? served.nextCursor
        : (data?.paging?.nextCursor ?? null);

  const loadMore = useCallback(() => {
    if (!nextCursor) return;
    setLoadingMore(true);
    fetchPage({ cursor: nextCursor, ...(query ? { q: query } : {}) })
      .then(async (page) => {
        if (query) return setSearch({ query, nextCursor: page.nextCursor, loading: false });
        await boardPagingTable.put({
          id: 'board',
          nextCursor: page.nextCursor,
          oldestCreatedAt: page.questions.at(-1)?.createdAt ?? data?.paging?.oldestCreatedAt ?? null,
        });
      })
      .catch((error: unknown) => toast.error(errorText(error, 'More questions could not be loaded. Please try again.')))
      .finally(() => setLoadingMore(false));
  }, [nextCursor, query, fetchPage, data?.paging?.oldestCreatedAt]);

  return {
    status: seeded ? 'ready' : local.status,
    posts,
    hasMore: nextCursor !== null,
    loadingMore,
    searching: search.loading && search.query === query,
    loadMore,
    retry: local.retry,
  };
}

export type QuestionState =
  { status: 'loading' | 'unavailable' | 'missing' } | { status: 'ready'; question: QuestionView };

/**
 * One question with its answers, for its own address (/qa/<id>), from IndexedDB. One the device does not hold (older
 * than the board's pages, or deleted) is asked of the server, and kept. `served`: the question the server rendered
 * the page with (null: there is no such question), shown until the device's copy is read.
 */
export function useQuestion(id: string, served?: { question: Question | null }): QuestionState & { retry(): void } {
  const local = useLocalData(
    async () => {
      const question = await questionsTable.get(id);
      if (!question) return null;
      const [answers, vote, revealed] = await Promise.all([
        answersTable.where('questionId').equals(id).toArray(),
        myVotesTable.get(id),
        revealedTable.get(id),
      ]);
      return { question, answers, votes: vote ? [vote] : [], revealed: revealed ? [revealed] : [] };
    },
    [id],
    [questionsSource],
  );
  const items = useOutboxItems();
  const [asked, setAsked] = useState<{ id: string; attempt: number; failed?: 'missing' | 'unavailable' }>({
    id,
    attempt: 0,
  });
  const attempt = asked.id === id ? asked.attempt : 0;
  const failed = asked.id === id ? asked.failed : undefined;
  const onDevice = local.data != null;
  const settled = local.status === 'empty' || local.status === 'unavailable';
  const knownMissing = served?.question === null;

  useEffect(() => {
    if (onDevice || !settled || knownMissing) return;
    let current = true;
    const generation = engine.generation();
    fetchQuestion(id)
      .then((page) => mergeQuestionPage(page, generation))
      .catch((error: unknown) => {
        const missing = error instanceof ApiError && error.status === 404;
        if (current) setAsked({ id, attempt, failed: missing ? 'missing' : 'unavailable' });
      });
    return () => {
      current = false;
    };
  }, [id, attempt, onDevice, settled, knownMissing]);

  const retry = useCallback(() => {
    setAsked({ id, attempt: attempt + 1 });
    local.retry();
  }, [id, attempt, local]);

  const state = useMemo((): QuestionState => {
    if (local.data) return { status: 'ready', question: viewsOf(local.data, items).view(local.data.question) };
    if (failed === 'missing' || knownMissing) return { status: 'missing' };
    if (served?.question) return { status: 'ready', question: servedView(served.question) };
    return { status: failed ?? (local.status === 'unavailable' ? 'unavailable' : 'loading') };
  }, [local.data, local.status, items, failed, knownMissing, served]);
  return { ...state, retry };
}

/** The board's actions for whoever is signed in (`me`), with the spec's alerts for a visitor. */
export function useQaActions(me: Me | undefined): BoardActions {
  const confirm = useConfirm();
  const items = useOutboxItems();
  // The same object while the user, the outbox and the dialog are: the board keeps its list across the renders
  // that change none of them (qa-page.tsx).
  return useMemo(() => qaActions(me, items, confirm), [me, items, confirm]);
}

/** What the ask form sends: the module as the catalogue names it (null: "Other"), and whether to hide the name. */
export interface AskInput {
  title: string;
  text: string;
  photos: LocalPhoto[];
  module: QuestionModule;
  anonymous: boolean;
}

type BoardActions = QaActions & { ask(input: AskInput): Promise<void> };

function qaActions(me: Me | undefined, items: OutboxItem[], confirm: ReturnType<typeof useConfirm>): BoardActions {
  const author = me ? { id: me.id, name: me.name, role: me.role } : undefined;

  /** Writes that are not queued (the asker's accept, the admin's deletions) need the server now. */
  async function online(action: () => Promise<unknown>, failed: string): Promise<void> {
    if (isOffline()) return void toast.error(offlineText);
    try {
      await action();
    } catch (error) {
      if (!isSessionEnded(error)) toast.error(errorText(error, failed, { offline: offlineText }));
    }
    void refreshSource(questionsSource);
  }

  const itemFor = (target: { table: string; id: string }) =>
    items.find((i) => i.target.table === target.table && i.target.id === target.id && i.state === 'attention');

  return {
    async ask(input) {
      if (!author) throw new Error(qaMessages.askSignedOut);
      const { photos, ...post } = input;
      const payload = { id: crypto.randomUUID(), ...post, author, createdAt: new Date().toISOString() };
      // With photos, a mutation of its own (qa.sync.ts says why).
      if (photos.length > 0) await askQuestionWithPhotos({ ...payload, photos } satisfies AskWithPhotosPayload);
      else await askQuestion(payload satisfies AskPayload);
    },
    async answer(question, text, photos = []) {
      if (!author) {
        toast.error(qaMessages.answerSignedOut);
        throw new Error(qaMessages.answerSignedOut);
      }
      if (!text.trim()) return;
      const payload = {
        id: crypto.randomUUID(),
        questionId: question.id,
        text: text.trim(),
        author,
        createdAt: new Date().toISOString(),
        ...(question.anonymous && question.revealed?.mine && { byAsker: true }),
      } satisfies AnswerPayload;
      if (photos.length > 0) await answerQuestionWithPhotos({ ...payload, photos });
      else await answerQuestion(payload);
    },
    vote(question, value: VoteValue) {
      if (!author) return void toast.error(qaMessages.voteSignedOut);
      voteOnQuestion({ questionId: question.id, value }).catch((error: unknown) => toast.error(errorText(error)));
    },
    endorse(question, answer, endorsed) {
      const param = { id: encodeURIComponent(question.id), answerId: encodeURIComponent(answer.id) };
      void online(
        async () => readJson(await questionRoute.answers[':answerId'].endorsement.$put({ param, json: { endorsed } })),
        'The endorsement could not be saved. Please try again.',
      );
    },
    accept(question, answerId) {
      void online(
        async () =>
          readJson(
            await questionRoute['accepted-answer'].$put({
              param: { id: encodeURIComponent(question.id) },
              json: { answerId },
            }),
          ),
        'The answer could not be marked. Please try again.',
      );
    },
    deleteQuestion(question) {
      void (async () => {
        const ok = await confirm({
          title: 'Delete question',
          message: `Delete "${question.title}" and its answers for everyone?`,
          confirmLabel: 'Delete',
          destructive: true,
        });
        if (ok)
          await online(
            async () => readJson(await questionRoute.$delete({ param: { id: encodeURIComponent(question.id) } })),
            'The question could not be deleted. Please try again.',
          );
      })();
    },
    deleteAnswer(question, answer) {
      void (async () => {
        const ok = await confirm({
          title: 'Delete answer',
          message: `Delete this answer by ${answer.author.name} for everyone?`,
          confirmLabel: 'Delete',
          destructive: true,
        });
        if (ok) {
          const param = { id: encodeURIComponent(question.id), answerId: encodeURIComponent(answer.id) };
          await online(
            async () => readJson(await questionRoute.answers[':answerId'].$delete({ param })),
            'The answer could not be deleted. Please try again.',
          );
        }
      })();
    },
    retry(target, edited) {
      const item = itemFor(target);
      if (!item) return;
      const payload = { ...(item.payload as AskPayload | AnswerPayload), ...(edited ?? {}) };
      retryItem(item.seq, payload).catch((error: unknown) => toast.error(errorText(error)));
    },
    discard(target) {
      const item = itemFor(target);
      if (!item) return;
      void (async () => {
        const ok = await confirm({
          title: 'Discard',
          message: 'Discard this post? What you wrote is removed from this device.',
          confirmLabel: 'Discard',
          destructive: true,
        });
        if (ok) await discardItem(item.seq);
      })();
    },
  };
}
