import { createNoticesFirestoreRepository } from '../../notices/notices.firestore.ts';
import type { NoticesRepository } from '../../notices/notices.storage.ts';
import { beforeAll, describe, expect, test } from 'vitest';
import { firestoreTestsRun } from '../../test/firestore-emulator.ts';
import { contractEngines, openFirestoreEngine, openSqlEngine } from '../../test/storage-engines.ts';
import { covers, type Position } from '../../../common/positions.ts';
import type { Role } from '../../../common/roles.ts';
import type { Me } from '../../../common/session.ts';
import { withTransaction, type Deps } from '../../deps.ts';
import { seededRandom } from '../../test/random.ts';
import { transact } from '../../storage/firestore/context.ts';
import { createPositions } from '../../storage/firestore/positions.ts';
import { createAccountsFirestoreRepository } from '../../auth/accounts.firestore.ts';
import { createQaFirestoreRepository } from './qa.firestore.ts';
import { createQaRepository } from './qa.repository.ts';
import type { BoardQuestion, NewPhoto, QaRepository, StoredHtml } from './qa.storage.ts';
import {
  acceptAnswer,
  answerQuestion,
  askQuestion,
  deleteAnswer,
  deleteQuestion,
  getQuestion,
  listQuestionChanges,
  listQuestions,
  qaPersonalData,
  voteOnQuestion,
} from './qa.usecases.ts';
import { deadline } from '../../test/deadline.ts';

/**
 * The board's repository contract, the same cases on each engine: SQL (the SQLite file, or PostgreSQL with
 * TEST_DATABASE_URL) and Firestore (Google's emulator). Changes run as the usecases run them (begin → reads →
 * stamps → writes, in one transaction); the races the SQL engines settle with the board's lock are run for
 * real, with concurrent writers.
 */
interface Engine {
  repo: QaRepository;
  /** The same storage with the search's rounds made small, so a few questions cross every way it answers. */
  smallRounds: QaRepository;
  /** Runs `work` in one transaction of the engine, with the repository on it. */
  transaction<T>(work: (repo: QaRepository) => Promise<T>): Promise<T>;
  /** An account, as the accounts' storage keeps it: what the board reads authors' names and roles from. */
  addUser(id: string, name: string, role: Role): Promise<void>;
  removeUser(id: string): Promise<void>;
  close(): Promise<void>;
}

async function openSql(): Promise<Engine> {
  const { db, kind, storage, close } = await openSqlEngine();
  return {
    repo: createQaRepository(db, kind),
    smallRounds: createQaRepository(db, kind, undefined, { candidates: 3, slice: 4 }),
    transaction: (work) => storage.transaction((repos) => work(repos.qa)),
    async addUser(id, name, role) {
      const now = new Date();
      await db
        .insertInto('users')
        .values({
          id,
          name,
          role,
          email: `${id}@example.com`,
          email_verified: true,
          image: null,
          created_at: now,
          updated_at: now,
        })
        .execute();
    },
    async removeUser(id) {
      await db.deleteFrom('users').where('id', '=', id).execute();
    },
    close,
  };
}

async function openFirestore(): Promise<Engine> {
  const { db, close } = await openFirestoreEngine('qa');
  // Few shards: writers meet on counters, as they would under load on 16.
  const positions = createPositions(db, { shards: 4 });
  const repo = createQaFirestoreRepository({ db }, positions, createAccountsFirestoreRepository({ db }));
  return {
    repo,
    smallRounds: repo,
    // As the storage runs one (`transact`: a read the emulator closed is tried again), with as many attempts as
    // the positions test gives: under contention the emulator's lock waits time out.
    transaction: (work) =>
      transact(
        db,
        (tx) => work(createQaFirestoreRepository({ db, tx }, positions, createAccountsFirestoreRepository({ db, tx }))),
        { maxAttempts: 20 },
      ),
    async addUser(id, name, role) {
      const now = new Date();
      await db.doc(`users/${id}`).set({
        name,
        role,
        email: `${id}@example.com`,
        email_verified: true,
        image: null,
        created_at: now,
        updated_at: now,
      });
    },
    async removeUser(id) {
      await db.doc(`users/${id}`).delete();
    },
    close,
  };
}

const at = (minute: number) => new Date(Date.UTC(2026, 10, 24, 10, minute)).toISOString();

/**
 * A word no other test's questions hold, so a search finds only this test's. Digits only after `zq`: a hex
 * marker held "ab" one time in forty, and the search for "ab" that must find nothing found it.
 */
const marker = () => `zq${String(crypto.getRandomValues(new Uint32Array(1))[0]).padStart(10, '0')}`;

interface Asked {
  id?: string;
  title?: string;
  text?: string;
  createdAt?: string;
  moduleSlug?: string | null;
  anonymous?: boolean;
  storedHtml?: StoredHtml;
}

/** askQuestion's transaction: false when the id is taken already. */
function ask(engine: Engine, userId: string, asked: Asked = {}) {
  const id = asked.id ?? crypto.randomUUID();
  const title = asked.title ?? 'How do limits work?';
  const text = asked.text ?? 'I am stuck on epsilon and delta.';
  return engine.transaction(async (qa) => {
    await qa.beginChanges();
    if (await qa.findQuestion(id)) return false;
    const [stamp] = await qa.takeStamps(1);
    await qa.insertQuestion({
      id,
      userId,
      title,
      text,
      searchText: `${title}\n${text}`.toLowerCase(),
      createdAt: asked.createdAt ?? at(0),
      stamp: stamp!,
      ...(asked.moduleSlug !== undefined && { moduleSlug: asked.moduleSlug }),
      ...(asked.anonymous !== undefined && { anonymous: asked.anonymous }),
      ...(asked.storedHtml && { storedHtml: asked.storedHtml }),
    });
    return true;
  });
}

async function askNew(engine: Engine, userId: string, asked: Asked = {}) {
  const id = asked.id ?? crypto.randomUUID();
  expect(await ask(engine, userId, { ...asked, id })).toBe(true);
  return id;
}

/** A usecase's change to one question: begin, read it (and `reads`), stamp, write, give it the stamp. */
function change<R>(
  engine: Engine,
  questionId: string,
  reads: (qa: QaRepository) => Promise<R>,
  write: (qa: QaRepository, read: R) => Promise<void>,
) {
  return engine.transaction(async (qa) => {
    await qa.beginChanges();
    const question = await qa.findQuestion(questionId);
    if (!question) throw new Error('no such question');
    const got = await reads(qa);
    const [stamp] = await qa.takeStamps(1, [question.version]);
    await write(qa, got);
    await qa.setVersion(questionId, stamp!);
    return stamp!;
  });
}

const vote = (engine: Engine, questionId: string, userId: string, value: 1 | -1 | 0) =>
  change(
    engine,
    questionId,
    (qa) => qa.findVote(questionId, userId),
    (qa, before) => qa.setVote(questionId, userId, value, before),
  );

function answer(engine: Engine, questionId: string, userId: string, id: string, createdAt = at(1)) {
  return change(
    engine,
    questionId,
    async () => undefined,
    (qa) => qa.insertAnswer({ id, questionId, userId, text: `Answer ${id}`, createdAt }),
  );
}

/** Everything changed since `since`, pulled `limit` at a time, and the last answer's position. */
async function pullAll(repo: QaRepository, since: Position, limit: number) {
  const seen: BoardQuestion[] = [];
  let position = since;
  for (let pulls = 0; pulls < 100; pulls++) {
    const changes = await repo.listChangedSince(position, limit);
    expect(changes.questions.length).toBeLessThanOrEqual(limit);
    seen.push(...changes.questions);
    position = changes.position;
    if (!changes.more) return { seen, position };
  }
  throw new Error('no end to the changes');
}

describe.each(contractEngines(openSql, openFirestore))('the board’s storage on %s', (_name, open) => {
  let engine: Engine;
  const alice = 'user-alice';
  const bob = 'user-bob';
  const voters = Array.from({ length: 10 }, (_, i) => `user-voter-${i}`);
  beforeAll(async () => {
    engine = await open();
    await engine.addUser(alice, 'Alice Asker', 'student');
    await engine.addUser(bob, 'Bob Tutor', 'tutor');
    for (const id of voters) await engine.addUser(id, `Voter ${id}`, 'student');
    return () => engine.close();
  }, deadline(90_000));

  test('a question stored is read back whole, with its author, and the board’s position covers it', async () => {
    const { repo } = engine;
    const before = await repo.readPosition();
    const id = await askNew(engine, alice, { title: 'Chain rule?', text: 'When do I use it?', createdAt: at(5) });
    const record = await repo.findQuestion(id);
    expect(record).toMatchObject({
      id,
      userId: alice,
      title: 'Chain rule?',
      text: 'When do I use it?',
      acceptedAnswerId: null,
      moduleSlug: null,
      anonymous: false,
      deletedAt: null,
    });
    const shown = await repo.findBoardQuestion(id);
    expect(shown).toEqual({
      id,
      title: 'Chain rule?',
      text: 'When do I use it?',
      author: { id: alice, name: 'Alice Asker', role: 'student' },
      createdAt: at(5),
      upvotes: 0,
      downvotes: 0,
      acceptedAnswerId: null,
      moduleSlug: null,
      anonymous: false,
      storedHtml: null,
      version: record!.version,
      deletedAt: null,
    });
    const after = await repo.readPosition();
    expect(covers(after, before)).toBe(true);
    expect(covers(before, after)).toBe(false);
    expect(await repo.findQuestion(crypto.randomUUID())).toBeUndefined();
    expect(await repo.findBoardQuestion(crypto.randomUUID())).toBeUndefined();
    expect(await repo.versionsOf([id, 'no-such-question'])).toEqual([record!.version, 0]);
  });

  describe('photos', () => {
    const bytes = (size: number, fill: number) => new Uint8Array(size).fill(fill);
    const photo = (questionId: string, answerId: string | null, userId: string, position: number): NewPhoto => ({
      id: crypto.randomUUID(),
      questionId,
      answerId,
      userId,
      position,
      contentType: 'image/jpeg',
      bytes: bytes(1_000 + position, 0x10 + position),
      thumbType: 'image/webp',
      thumb: bytes(100 + position, 0x40 + position),
      createdAt: at(10 + position),
    });
    const store = (photos: NewPhoto[]) =>
      change(
        engine,
        photos[0]!.questionId,
        async () => undefined,
        (qa) => qa.insertPhotos(photos),
      );
    const ref = (p: NewPhoto) => ({ id: p.id, questionId: p.questionId, answerId: p.answerId });

    test('stored with their post, listed per post in order, each size read back as stored', async () => {
      const { repo } = engine;
      const q1 = await askNew(engine, alice);
      const q2 = await askNew(engine, alice);
      await answer(engine, q1, bob, `${q1}-a`);
      const asked = [photo(q1, null, alice, 0), photo(q1, null, alice, 1)];
      const answered = [photo(q1, `${q1}-a`, bob, 0)];
      const other = [photo(q2, null, alice, 0)];
      await store(asked);
      await store(answered);
      await store(other);
      const listed = await repo.listPhotos([q1, q2]);
      expect(listed).toHaveLength(4);
      expect(listed.filter((p) => p.questionId === q1 && p.answerId === null)).toEqual(asked.map(ref));
      expect(listed.filter((p) => p.answerId === `${q1}-a`)).toEqual(answered.map(ref));
      expect(await repo.listPhotos([q2])).toEqual(other.map(ref));
      expect(await repo.listPhotos([])).toEqual([]);
      expect(await repo.findPhoto(asked[1]!.id, 'full')).toEqual({
        ...ref(asked[1]!),
        contentType: 'image/jpeg',
        bytes: asked[1]!.bytes,
      });
      expect(await repo.findPhoto(answered[0]!.id, 'thumb')).toEqual({
        ...ref(answered[0]!),
        contentType: 'image/webp',
        bytes: answered[0]!.thumb,
      });
      for (const id of [crypto.randomUUID(), 'a/b', '..']) expect(await repo.findPhoto(id, 'full')).toBeUndefined();
    });

    test('listed by who posted them, for the export, and deleted bytes and all', async () => {
      const { repo } = engine;
      const id = await askNew(engine, alice);
      await answer(engine, id, bob, `${id}-a`);
      const mine = [photo(id, null, alice, 0), photo(id, null, alice, 1)];
      const theirs = [photo(id, `${id}-a`, bob, 0)];
      await store(mine);
      await store(theirs);
      const own = (await repo.listPhotosBy(bob)).filter((p) => p.questionId === id);
      expect(own).toEqual([
        { ...ref(theirs[0]!), contentType: 'image/jpeg', size: theirs[0]!.bytes.byteLength, createdAt: at(10) },
      ]);
      await change(
        engine,
        id,
        async (qa) => (await qa.listPhotosBy(bob)).filter((p) => p.questionId === id),
        (qa, found) => qa.deletePhotos(found),
      );
      expect(await repo.findPhoto(theirs[0]!.id, 'full')).toBeUndefined();
      expect(await repo.findPhoto(theirs[0]!.id, 'thumb')).toBeUndefined();
      expect(await repo.listPhotos([id])).toEqual(mine.map(ref));
      await change(
        engine,
        id,
        (qa) => qa.listPhotos([id]),
        (qa, found) => qa.deletePhotos(found),
      );
      expect(await repo.listPhotos([id])).toEqual([]);
      expect((await repo.listPhotosBy(alice)).filter((p) => p.questionId === id)).toEqual([]);
    });
  });

  test('an id from the URL that no document can have names no question or answer', async () => {
    const { repo } = engine;
    for (const id of ['a/b', '.', '..', '__name__', ''])
      await Promise.all([
        expect(repo.findQuestion(id)).resolves.toBeUndefined(),
        expect(repo.findBoardQuestion(id)).resolves.toBeUndefined(),
        expect(repo.findAnswer(id)).resolves.toBeUndefined(),
        expect(repo.findBoardAnswer(id)).resolves.toBeUndefined(),
        expect(repo.versionsOf([id])).resolves.toEqual([0]),
      ]);
  });

  test('answers are listed oldest first per question; one deleted goes, and un-accepts only if accepted', async () => {
    const { repo } = engine;
    const q1 = await askNew(engine, alice);
    const q2 = await askNew(engine, alice);
    await answer(engine, q1, bob, `${q1}-b`, at(3));
    await answer(engine, q1, alice, `${q1}-a`, at(2));
    await answer(engine, q2, bob, `${q2}-a`, at(2));
    // Two at the same time: by id.
    const tied = [`${q1}-a`, `${q2}-a`].sort();
    expect((await repo.listAnswers([q1, q2])).map((a) => a.id)).toEqual([...tied, `${q1}-b`]);
    expect(await repo.findAnswer(`${q1}-b`)).toEqual({
      id: `${q1}-b`,
      questionId: q1,
      userId: bob,
      text: `Answer ${q1}-b`,
      endorsed: false,
    });
    expect(await repo.findBoardAnswer(`${q1}-b`)).toEqual({
      id: `${q1}-b`,
      questionId: q1,
      text: `Answer ${q1}-b`,
      author: { id: bob, name: 'Bob Tutor', role: 'tutor' },
      createdAt: at(3),
      endorsed: false,
      storedHtml: null,
    });
    await change(
      engine,
      q1,
      async () => undefined,
      (qa) => qa.setAcceptedAnswer(q1, `${q1}-b`),
    );
    // Deleting another answer leaves the accepted one accepted.
    await change(
      engine,
      q1,
      (qa) => qa.findQuestion(q1),
      (qa, question) => qa.deleteAnswer(question!, `${q1}-a`),
    );
    expect((await repo.findQuestion(q1))?.acceptedAnswerId).toBe(`${q1}-b`);
    await change(
      engine,
      q1,
      (qa) => qa.findQuestion(q1),
      (qa, question) => qa.deleteAnswer(question!, `${q1}-b`),
    );
    expect((await repo.findQuestion(q1))?.acceptedAnswerId).toBeNull();
    expect(await repo.listAnswers([q1])).toEqual([]);
    expect(await repo.findAnswer(`${q1}-b`)).toBeUndefined();
    expect(await repo.findBoardAnswer(`${q1}-b`)).toBeUndefined();
  });

  test('a vote is set, changed and withdrawn, and the counts follow it', async () => {
    const { repo } = engine;
    const id = await askNew(engine, alice);
    const counts = async () => {
      const q = await repo.findBoardQuestion(id);
      return [q?.upvotes, q?.downvotes];
    };
    await vote(engine, id, bob, 1);
    expect(await counts()).toEqual([1, 0]);
    expect(await repo.findVote(id, bob)).toBe(1);
    await vote(engine, id, bob, 1);
    expect(await counts()).toEqual([1, 0]);
    await vote(engine, id, bob, -1);
    await vote(engine, id, alice, -1);
    expect(await counts()).toEqual([0, 2]);
    expect(await repo.votesOn(bob, [id, crypto.randomUUID()])).toEqual([{ questionId: id, value: -1 }]);
    await vote(engine, id, bob, 0);
    expect(await counts()).toEqual([0, 1]);
    expect(await repo.findVote(id, bob)).toBe(0);
    expect(await repo.votesOn(bob, [id])).toEqual([]);
  });

  test('an imported question keeps the old site’s counts, votes here add to them; no author is kept as none', async () => {
    const { repo } = engine;
    const id = crypto.randomUUID();
    const answerId = `${id}-old`;
    await engine.transaction(async (qa) => {
      await qa.beginChanges();
      const [stamp] = await qa.takeStamps(1);
      await qa.insertQuestion({
        id,
        userId: null,
        title: 'Old question',
        text: 'From the old site.',
        searchText: 'old question\nfrom the old site.',
        createdAt: at(7),
        stamp: stamp!,
        importedVotes: { upvotes: 3, downvotes: 1 },
      });
      await qa.insertAnswer({ id: answerId, questionId: id, userId: null, text: 'Old answer', createdAt: at(8) });
    });
    expect(await repo.findBoardQuestion(id)).toMatchObject({ author: null, upvotes: 3, downvotes: 1 });
    expect(await repo.findAnswer(answerId)).toEqual({
      id: answerId,
      questionId: id,
      userId: null,
      text: 'Old answer',
      endorsed: false,
    });
    await vote(engine, id, bob, 1);
    await vote(engine, id, alice, -1);
    expect(await repo.findBoardQuestion(id)).toMatchObject({ upvotes: 4, downvotes: 2 });
    await vote(engine, id, bob, 0);
    expect(await repo.findBoardQuestion(id)).toMatchObject({ upvotes: 3, downvotes: 2 });
  });

  test('an imported question brought up to date: title, text, search and the old counts; votes here stay', async () => {
    const { repo } = engine;
    const id = crypto.randomUUID();
    const answerId = `${id}-old`;
    const word = marker();
    await engine.transaction(async (qa) => {
      await qa.beginChanges();
      const [stamp] = await qa.takeStamps(1);
      await qa.insertQuestion({
        id,
        userId: null,
        title: `Old ${word}`,
        text: 'From the old site.',
        searchText: `old ${word}\nfrom the old site.`,
        createdAt: at(7),
        stamp: stamp!,
        importedVotes: { upvotes: 28, downvotes: 2 },
        storedHtml: { html: '<p>From the old site.</p>', version: 1 },
      });
      await qa.insertAnswer({
        id: answerId,
        questionId: id,
        userId: null,
        text: 'Old answer',
        storedHtml: { html: '<p>Old answer</p>', version: 1 },
        createdAt: at(8),
      });
    });
    await vote(engine, id, bob, 1);
    expect(await repo.importedVotesOf(id)).toEqual({ upvotes: 28, downvotes: 2 });
    expect(await repo.importedVotesOf(crypto.randomUUID())).toBeUndefined();

    const newWord = marker();
    const before = (await repo.findQuestion(id))!.version;
    const stamp = await engine.transaction(async (qa) => {
      await qa.beginChanges();
      const found = await qa.findQuestion(id);
      const imported = await qa.importedVotesOf(id);
      const [stamp] = await qa.takeStamps(1, [found!.version]);
      await qa.updateImportedQuestion(
        id,
        {
          title: `Edited ${newWord}`,
          text: 'Edited on the old site.',
          searchText: `edited ${newWord}\nedited on the old site.`,
          importedVotes: { upvotes: 33, downvotes: 1 },
        },
        imported!,
        stamp!,
      );
      await qa.updateImportedAnswer(answerId, 'Edited answer');
      return stamp!;
    });
    expect(stamp.version).toBeGreaterThan(before);
    expect(await repo.findBoardQuestion(id)).toMatchObject({
      title: `Edited ${newWord}`,
      text: 'Edited on the old site.',
      upvotes: 34,
      downvotes: 1,
      version: stamp.version,
    });
    expect(await repo.importedVotesOf(id)).toEqual({ upvotes: 33, downvotes: 1 });
    expect((await repo.findAnswer(answerId))?.text).toBe('Edited answer');
    // The HTML kept for the old texts is gone with them: the new ones are rendered when read.
    expect((await repo.findBoardQuestion(id))?.storedHtml).toBeNull();
    expect((await repo.findBoardAnswer(answerId))?.storedHtml).toBeNull();
    // The search finds the new text, and no longer the old.
    expect((await repo.listPage({ search: newWord, limit: 5 })).map((q) => q.id)).toEqual([id]);
    expect(await repo.listPage({ search: word, limit: 5 })).toEqual([]);
    // And a vote still moves the counts from there.
    await vote(engine, id, alice, -1);
    expect(await repo.findBoardQuestion(id)).toMatchObject({ upvotes: 34, downvotes: 2 });
  });

  test('a post’s HTML kept when posted is read back with it, wherever the board reads it', async () => {
    const { repo } = engine;
    const word = marker();
    const future = (minute: number) => `2997-01-01T00:${String(minute).padStart(2, '0')}:00.000Z`;
    const kept = { html: `<p>Kept <span class="katex">${word}</span></p>`, version: 7 };
    const id = await askNew(engine, alice, { title: `Kept ${word}`, storedHtml: kept, createdAt: future(3) });
    const plain = await askNew(engine, alice, { title: `Plain ${word}`, createdAt: future(2) });
    await change(
      engine,
      id,
      async () => undefined,
      (qa) =>
        qa.insertAnswer({
          id: `${id}-kept`,
          questionId: id,
          userId: bob,
          text: 'Kept answer',
          storedHtml: { html: '<p>Kept answer</p>', version: 7 },
          createdAt: future(4),
        }),
    );
    await answer(engine, id, bob, `${id}-plain`, future(5));
    expect((await repo.findBoardQuestion(id))?.storedHtml).toEqual(kept);
    expect((await repo.findBoardQuestion(plain))?.storedHtml).toBeNull();
    const page = await repo.listPage({ search: word, limit: 5 });
    expect(page.map((q) => [q.id, q.storedHtml])).toEqual([
      [id, kept],
      [plain, null],
    ]);
    expect((await repo.listAnswers([id])).map((a) => [a.id, a.storedHtml])).toEqual([
      [`${id}-kept`, { html: '<p>Kept answer</p>', version: 7 }],
      [`${id}-plain`, null],
    ]);
    expect((await repo.findBoardAnswer(`${id}-kept`))?.storedHtml?.html).toBe('<p>Kept answer</p>');
  });

  test('ten users voting at once are all counted, and the question’s version goes above each', async () => {
    const { repo } = engine;
    const id = await askNew(engine, alice);
    const stamps = await Promise.all(voters.map((voter) => vote(engine, id, voter, 1)));
    const shown = await repo.findBoardQuestion(id);
    expect(shown?.upvotes).toBe(10);
    expect(shown?.version).toBe(Math.max(...stamps.map((s) => s.version)));
    // Each change went above the one before it on the question: ten different versions.
    expect(new Set(stamps.map((s) => s.version)).size).toBe(10);
  });

  test('one user voting up from five devices at once counts once', async () => {
    const id = await askNew(engine, alice);
    await Promise.all(Array.from({ length: 5 }, () => vote(engine, id, bob, 1)));
    expect((await engine.repo.findBoardQuestion(id))?.upvotes).toBe(1);
    expect(await engine.repo.listVotesBy(bob)).toContainEqual({ questionId: id, value: 1 });
  });

  test('one question sent five times at once is stored once', async () => {
    const id = crypto.randomUUID();
    const results = await Promise.all(Array.from({ length: 5 }, () => ask(engine, alice, { id })));
    expect(results.filter(Boolean)).toHaveLength(1);
    expect((await engine.repo.findQuestion(id))?.id).toBe(id);
  });

  test('posts are counted since a time; five posts at once at the limit let one through', async () => {
    const { repo } = engine;
    const poster = `user-poster-${crypto.randomUUID().slice(0, 8)}`;
    await engine.addUser(poster, 'Poster', 'student');
    const q = await askNew(engine, poster, { createdAt: at(10) });
    await answer(engine, q, poster, crypto.randomUUID(), at(12));
    expect(await repo.countPostsSince(poster, at(9))).toBe(2);
    expect(await repo.countPostsSince(poster, at(10))).toBe(1);
    expect(await repo.countPostsSince(poster, at(12))).toBe(0);
    // The usecases' rate limit, with a limit of 3: a check then a write, which concurrent posts must not pass.
    const posted = await Promise.all(
      Array.from({ length: 5 }, (_, i) =>
        engine.transaction(async (qa) => {
          await qa.beginChanges();
          if ((await qa.countPostsSince(poster, at(9))) >= 3) return false;
          const [stamp] = await qa.takeStamps(1);
          await qa.insertQuestion({
            id: crypto.randomUUID(),
            userId: poster,
            title: `Post ${i}`,
            text: 'Text',
            searchText: `post ${i}\ntext`,
            createdAt: at(20 + i),
            stamp: stamp!,
          });
          return true;
        }),
      ),
    );
    expect(posted.filter(Boolean)).toHaveLength(1);
    expect(await repo.countPostsSince(poster, at(9))).toBe(3);
  });

  test('the board is newest first, ties by id, deleted questions left out, and pages follow on', async () => {
    const { repo } = engine;
    // Far in the future: this test's questions are the board's first page whatever the others stored.
    const future = (minute: number) => `2999-01-01T00:${String(minute).padStart(2, '0')}:00.000Z`;
    const ids = ['aaaa', 'bbbb', 'cccc', 'dddd', 'eeee'].map((p) => `${p}-${crypto.randomUUID()}`);
    await askNew(engine, alice, { id: ids[0], createdAt: future(1) });
    await askNew(engine, alice, { id: ids[1], createdAt: future(2) });
    await askNew(engine, alice, { id: ids[2], createdAt: future(2) });
    await askNew(engine, bob, { id: ids[3], createdAt: future(3) });
    await askNew(engine, bob, { id: ids[4], createdAt: future(4) });
    await change(
      engine,
      ids[3]!,
      async () => undefined,
      (qa) => qa.markQuestionDeleted(ids[3]!, future(5)),
    );
    const first = await repo.listPage({ limit: 2 });
    expect(first.map((q) => q.id)).toEqual([ids[4], ids[2]]);
    expect(first[0]?.author).toEqual({ id: bob, name: 'Bob Tutor', role: 'tutor' });
    const second = await repo.listPage({ limit: 2, after: { createdAt: first[1]!.createdAt, id: first[1]!.id } });
    expect(second.map((q) => q.id)).toEqual([ids[1], ids[0]]);
    // A deleted question is still found by id, as a tombstone.
    expect((await repo.findBoardQuestion(ids[3]!))?.deletedAt).toBe(future(5));
  });

  test('a module’s questions come newest first, "Other" holds those with none, and a search keeps to its module', async () => {
    const { repo } = engine;
    const word = `modword${crypto.randomUUID().slice(0, 8)}`;
    const slug = `module-${crypto.randomUUID().slice(0, 8)}`;
    const future = (minute: number) => `2998-01-01T00:${String(minute).padStart(2, '0')}:00.000Z`;
    const older = await askNew(engine, alice, { title: `Old ${word}`, moduleSlug: slug, createdAt: future(1) });
    const newer = await askNew(engine, alice, { title: `New ${word}`, moduleSlug: slug, createdAt: future(2) });
    const other = await askNew(engine, alice, { title: `None ${word}`, createdAt: future(3), anonymous: true });
    expect((await repo.listPage({ moduleSlug: slug, limit: 5 })).map((q) => q.id)).toEqual([newer, older]);
    const paged = await repo.listPage({ moduleSlug: slug, limit: 1, after: { createdAt: future(2), id: newer } });
    expect(paged.map((q) => q.id)).toEqual([older]);
    expect((await repo.listPage({ moduleSlug: slug, search: `new ${word}`, limit: 5 })).map((q) => q.id)).toEqual([
      newer,
    ]);
    const none = await repo.listPage({ moduleSlug: null, search: word, limit: 5 });
    expect(none.map((q) => q.id)).toEqual([other]);
    // The real author stays stored: the usecases decide who sees it.
    expect(none[0]).toMatchObject({ anonymous: true, moduleSlug: null, author: { id: alice } });
    expect((await repo.findBoardQuestion(newer))?.moduleSlug).toBe(slug);
    expect((await repo.findQuestion(newer))?.moduleSlug).toBe(slug);
    expect(await repo.listQuestionsBy(alice)).toContainEqual(
      expect.objectContaining({ id: other, anonymous: true, moduleSlug: null }),
    );
  });

  test('an answer is endorsed and the endorsement withdrawn', async () => {
    const { repo } = engine;
    const id = await askNew(engine, alice);
    await answer(engine, id, alice, `${id}-a`);
    await change(
      engine,
      id,
      async () => undefined,
      (qa) => qa.setEndorsement(`${id}-a`, { userId: bob, at: at(4) }),
    );
    expect((await repo.findAnswer(`${id}-a`))?.endorsed).toBe(true);
    expect((await repo.listAnswers([id]))[0]?.endorsed).toBe(true);
    await change(
      engine,
      id,
      async () => undefined,
      (qa) => qa.setEndorsement(`${id}-a`, null),
    );
    expect((await repo.findBoardAnswer(`${id}-a`))?.endorsed).toBe(false);
  });

  test('a post whose author’s account is gone has no author', async () => {
    const gone = `user-gone-${crypto.randomUUID().slice(0, 8)}`;
    await engine.addUser(gone, 'Gone Soon', 'student');
    const id = await askNew(engine, gone);
    await answer(engine, id, gone, `${id}-a`);
    await engine.removeUser(gone);
    expect((await engine.repo.findBoardQuestion(id))?.author).toBeNull();
    expect((await engine.repo.listAnswers([id]))[0]?.author).toBeNull();
  });

  describe('search finds what SQL’s LIKE finds: the lower-cased text, as it is, anywhere in title or text', () => {
    const word = marker();
    const posts = [
      { title: `Limits ${word}`, text: 'Epsilon–delta proofs, 100% clear?' },
      { title: `Ströme ${word}`, text: 'Maxwell’s equations in a_b form' },
      { title: `Émojis ${word} 🙂`, text: 'What is 2+2?' },
      { title: `Plain ${word}`, text: 'nothing special here\nsecond line' },
    ];
    const ids: string[] = [];
    beforeAll(async () => {
      for (const [i, post] of posts.entries())
        ids.push(await askNew(engine, alice, { ...post, createdAt: at(30 + i) }));
    });
    const found = async (search: string) =>
      (await engine.repo.listPage({ search, limit: 50 })).map((q) => ids.indexOf(q.id)).sort();
    test.each([
      [word, [0, 1, 2, 3]],
      [`limits ${word}`, [0]],
      ['psilon', [0]],
      ['100% clear', [0]],
      ['0%', [0]],
      ['a_b', [1]],
      ['ströme', [1]],
      ['ö', [1]],
      ['émojis', [2]],
      ['🙂', [2]],
      [`${word} 🙂\nwhat`, [2]],
      ['2+2', [2]],
      ['here\nsecond', [3]],
      ['%', [0]],
      ['_', [1]],
      ['limits  ', []],
      ['a%b', []],
      ['ab', []],
      ['\ud83d', []],
    ])('“%s”', async (search, expected) => {
      // Only this block's questions: every case's expectation holds among them.
      const got = (await found(search)).filter((i) => i >= 0);
      expect(got).toEqual(expected);
    });
  });

  test('a search pages through many near misses (more than one round of candidates) in the board’s order', async () => {
    const word = marker();
    const hits: string[] = [];
    // Older hits, then many newer questions that share the search's first letters but not the search.
    for (let i = 0; i < 3; i++)
      hits.unshift(await askNew(engine, alice, { title: `${word} needle ${i}`, createdAt: at(40 + i) }));
    await engine.transaction(async (qa) => {
      await qa.beginChanges();
      const stamps = await qa.takeStamps(130);
      for (const [i, stamp] of stamps.entries()) {
        const title = `${word} need ${i}`;
        await qa.insertQuestion({
          id: crypto.randomUUID(),
          userId: bob,
          title,
          text: 'Near miss',
          searchText: `${title}\nnear miss`.toLowerCase(),
          createdAt: at(50),
          stamp,
        });
      }
    });
    const search = `${word} needle`;
    const first = await engine.repo.listPage({ search, limit: 2 });
    expect(first.map((q) => q.id)).toEqual(hits.slice(0, 2));
    const rest = await engine.repo.listPage({ search, limit: 2, after: first[1]! });
    expect(rest.map((q) => q.id)).toEqual(hits.slice(2));
    expect(await engine.repo.listPage({ search: `${word} need`, limit: 200 })).toHaveLength(133);
  });

  test('a search finds what a filter over every question finds, page by page, however the engine answers it', async () => {
    const word = marker();
    const letters = 'abc ';
    const random = seededRandom(22);
    const posts = Array.from({ length: 40 }, (_, i) => ({
      id: crypto.randomUUID() as string,
      title: `${word} ${i}`,
      text: Array.from({ length: 12 }, () => random.pick([...letters])).join(''),
      // Ties on the time, so the id decides the order among them.
      createdAt: at(i % 7),
    }));
    for (const post of posts) await askNew(engine, alice, post);
    const deleted = new Set(posts.filter((_, i) => i % 5 === 0).map((p) => p.id));
    for (const id of deleted)
      await change(
        engine,
        id,
        async () => undefined,
        (qa) => qa.markQuestionDeleted(id, at(59)),
      );
    const ours = new Set(posts.map((p) => p.id));
    const byBoardOrder = (a: Asked, b: Asked) =>
      a.createdAt === b.createdAt ? (a.id! < b.id! ? 1 : -1) : a.createdAt! < b.createdAt! ? 1 : -1;
    const searches = ['a', 'c', 'ab', 'b a', 'abc', 'cab', 'aaa', 'a b c', ' 1', '1\nc', `${word} 3`, 'zzz', 'ccca'];
    for (const search of searches) {
      const expected = posts
        .filter((p) => !deleted.has(p.id) && `${p.title}\n${p.text}`.toLowerCase().includes(search))
        .sort(byBoardOrder)
        .map((p) => p.id);
      for (const repo of new Set([engine.repo, engine.smallRounds])) {
        const got: string[] = [];
        let after: BoardQuestion | undefined;
        for (let pages = 0; pages < 1000; pages++) {
          const page = await repo.listPage({ search, after, limit: 3 });
          got.push(...page.map((q) => q.id).filter((id) => ours.has(id)));
          if (page.length < 3) break;
          after = page.at(-1);
        }
        expect(got, `“${search}”`).toEqual(expected);
      }
    }
  });

  test('changes since a position: every change once, in pages, deleted ones too, up to the board’s position', async () => {
    const { repo } = engine;
    const since = await repo.readPosition();
    const a = await askNew(engine, alice);
    const b = await askNew(engine, alice);
    const c = await askNew(engine, bob);
    await vote(engine, a, bob, 1);
    await change(
      engine,
      b,
      async () => undefined,
      (qa) => qa.markQuestionDeleted(b, at(59)),
    );
    const { seen, position } = await pullAll(repo, since, 2);
    // Each question at its last version; earlier versions of one may come in an earlier page.
    const last = new Map(seen.map((q) => [q.id, q]));
    expect([...last.keys()].sort()).toEqual([a, b, c].sort());
    expect(last.get(a)?.upvotes).toBe(1);
    expect(last.get(b)?.deletedAt).toBe(at(59));
    expect(covers(position, await repo.readPosition())).toBe(true);
    const none = await repo.listChangedSince(position, 10);
    expect(none.questions).toEqual([]);
    expect(none.more).toBe(false);
  });

  test('the user’s own questions, answers and votes, and withdrawing their votes recounts the questions', async () => {
    const { repo } = engine;
    const user = `user-own-${crypto.randomUUID().slice(0, 8)}`;
    await engine.addUser(user, 'Own', 'student');
    const mine = await askNew(engine, user, { createdAt: at(2) });
    const older = await askNew(engine, user, { createdAt: at(1) });
    const theirs = await askNew(engine, bob);
    await answer(engine, theirs, user, `${theirs}-own`, at(3));
    await vote(engine, theirs, user, 1);
    await vote(engine, mine, user, -1);
    await vote(engine, theirs, alice, 1);
    // The user endorses an answer (as staff do): it stays endorsed after, by nobody named.
    await answer(engine, theirs, alice, `${theirs}-endorsed`, at(4));
    await change(
      engine,
      theirs,
      async () => undefined,
      (qa) => qa.setEndorsement(`${theirs}-endorsed`, { userId: user, at: at(5) }),
    );
    expect((await repo.listQuestionsBy(user)).map((q) => q.id)).toEqual([older, mine]);
    expect((await repo.listQuestionsBy(user))[1]).toMatchObject({ id: mine, upvotes: 0, downvotes: 1 });
    expect(await repo.listAnswersBy(user)).toEqual([
      { id: `${theirs}-own`, questionId: theirs, text: `Answer ${theirs}-own`, createdAt: at(3) },
    ]);
    const votes = await repo.listVotesBy(user);
    expect(votes).toEqual(
      [
        { questionId: theirs, value: 1 },
        { questionId: mine, value: -1 },
      ].sort((x, y) => (x.questionId < y.questionId ? -1 : 1)),
    );
    const posts = await repo.listPostsBy(user);
    expect(posts.questionIds.sort()).toEqual([mine, older].sort());
    expect(posts.answers).toEqual([{ id: `${theirs}-own`, questionId: theirs }]);
    expect(posts.endorsedAnswerIds).toEqual([`${theirs}-endorsed`]);
    // The account deletion's transaction (qaPersonalData.eraseFor).
    await engine.transaction(async (qa) => {
      await qa.beginChanges();
      const [read, posted] = [await qa.listVotesBy(user), await qa.listPostsBy(user)];
      const stamps = await qa.takeStamps(3, await qa.versionsOf([mine, older, theirs]));
      await qa.withdrawVotes(user, read);
      await qa.forgetAuthor(user, posted);
      await qa.setVersion(mine, stamps[0]!);
      await qa.setVersion(older, stamps[1]!);
      await qa.setVersion(theirs, stamps[2]!);
    });
    expect(await repo.listVotesBy(user)).toEqual([]);
    expect((await repo.findBoardQuestion(theirs))?.upvotes).toBe(1);
    expect((await repo.findBoardQuestion(mine))?.downvotes).toBe(0);
    // Their posts stay, with no author and nothing left that finds them by the account.
    expect(await repo.listPostsBy(user)).toEqual({ questionIds: [], answers: [], endorsedAnswerIds: [] });
    expect((await repo.findAnswer(`${theirs}-endorsed`))?.endorsed).toBe(true);
    expect(await repo.listQuestionsBy(user)).toEqual([]);
    expect((await repo.findQuestion(mine))?.userId).toBeNull();
    expect((await repo.findAnswer(`${theirs}-own`))?.userId).toBeNull();
    expect((await repo.findBoardQuestion(mine))?.author).toBeNull();
    // Nothing of theirs counts toward a rate limit any more (Firestore: their post times are gone).
    expect(await repo.countPostsSince(user, '2000-01-01T00:00:00.000Z')).toBe(0);
  });

  test('a transaction that reads, writes and then fails leaves nothing behind', async () => {
    const id = crypto.randomUUID();
    const before = await engine.repo.readPosition();
    await expect(
      engine.transaction(async (qa) => {
        await qa.beginChanges();
        expect(await qa.findQuestion(id)).toBeUndefined();
        const [stamp] = await qa.takeStamps(1);
        await qa.insertQuestion({
          id,
          userId: alice,
          title: 'Rolled back',
          text: 'Never stored',
          searchText: 'rolled back\nnever stored',
          createdAt: at(0),
          stamp: stamp!,
        });
        throw new Error('refused later');
      }),
    ).rejects.toThrow('refused later');
    expect(await engine.repo.findQuestion(id)).toBeUndefined();
    expect(await engine.repo.readPosition()).toEqual(before);
  });
});

/**
 * The board's usecases themselves on Firestore, which refuses a read after a write in a transaction: each of
 * them is written begin → reads → stamps → writes. Only the board's repository is there (the Firestore storage
 * as a whole is composed elsewhere); any other feature's would be a mistake, and throws. Not in the PostgreSQL
 * run (`firestoreTestsRun`), like the contract's Firestore half.
 */
describe.skipIf(!firestoreTestsRun)('the board’s usecases on Firestore', () => {
  let deps: Deps;
  let close: () => Promise<void>;
  const person = (id: string, role: Me['role'] = 'student'): Me => ({
    id,
    name: `Name of ${id}`,
    email: `${id}@example.com`,
    emailVerified: true,
    role,
    categories: [],
  });
  const asker = person('uc-asker');
  const tutor = person('uc-tutor', 'tutor');
  const admin = person('uc-admin', 'admin');
  const published: unknown[] = [];

  beforeAll(async () => {
    const client = await openFirestoreEngine('qa-uc');
    close = client.close;
    const { db } = client;
    const positions = createPositions(db, { shards: 4 });
    // Another feature's repository may be handed on (withTransaction binds the outbox), never used; but the
    // notices, which the board writes (the follows, an answer's fan-out: issue 38).
    const unused = (feature: string) =>
      new Proxy(
        {},
        {
          get: (_, method) => () => {
            throw new Error(`the board used ${feature}.${String(method)}`);
          },
        },
      );
    const only = (qa: QaRepository, notices: NoticesRepository) =>
      new Proxy({ qa, notices } as Deps['repos'], {
        get: (target, name: string) => (name === 'qa' || name === 'notices' ? target[name] : unused(name)),
      });
    for (const me of [asker, tutor, admin])
      await db.doc(`users/${me.id}`).set({ name: me.name, role: me.role, email: me.email });
    const repos = only(
      createQaFirestoreRepository({ db }, positions, createAccountsFirestoreRepository({ db })),
      createNoticesFirestoreRepository({ db }),
    );
    deps = {
      storage: {
        kind: 'firestore',
        repos,
        transaction: (work) =>
          db.runTransaction((tx) =>
            work(
              only(
                createQaFirestoreRepository({ db, tx }, positions, createAccountsFirestoreRepository({ db, tx })),
                createNoticesFirestoreRepository({ db, tx }),
              ),
            ),
          ),
        ping: async () => true,
        close: async () => undefined,
      },
      repos,
      clock: { now: () => new Date() },
      events: { publish: (notice) => void published.push(notice) },
      mail: { enqueue: async () => undefined, bind: () => deps.mail, wake: () => undefined },
      config: {} as Deps['config'],
      logger: console as unknown as Deps['logger'],
    };
    return () => close();
  }, deadline(90_000));

  test('ask, answer, vote, accept, delete, search, changes since, and the account’s erasure', async () => {
    const id = crypto.randomUUID();
    const ask = { id, title: 'Firestore Integrals', text: 'How do I integrate by parts?' };
    expect((await askQuestion(deps, asker, ask)).created).toBe(true);
    expect((await askQuestion(deps, asker, ask)).created).toBe(false);
    const answerId = crypto.randomUUID();
    await answerQuestion(deps, tutor, id, { id: answerId, text: 'Pick u and dv.' });
    await voteOnQuestion(deps, tutor, id, 1);
    await voteOnQuestion(deps, admin, id, -1);
    await expect(acceptAnswer(deps, tutor, id, { answerId })).rejects.toMatchObject({ code: 'qa.not_asker' });
    const accepted = await acceptAnswer(deps, asker, id, { answerId });
    expect(accepted).toMatchObject({ upvotes: 1, downvotes: 1, acceptedAnswerId: answerId });
    expect(accepted.answers.map((a) => a.id)).toEqual([answerId]);
    expect((await listQuestions(deps, tutor, { q: 'BY PARTS' })).questions.map((q) => [q.id, q.myVote])).toEqual([
      [id, 1],
    ]);

    await deleteAnswer(deps, admin, id, answerId);
    expect(await getQuestion(deps, undefined, id)).toMatchObject({ acceptedAnswerId: null, answers: [] });
    // As the profile's account deletion runs it: in one transaction.
    await withTransaction(deps, (tx) => qaPersonalData.eraseFor(tx, tutor.id));
    expect(await getQuestion(deps, undefined, id)).toMatchObject({ upvotes: 0, downvotes: 1 });

    const before = await listQuestionChanges(deps, undefined, [0]);
    expect(before.questions.map((q) => q.id)).toEqual([id]);
    await deleteQuestion(deps, admin, id);
    const after = await listQuestionChanges(deps, undefined, [0]);
    expect(after.deleted).toEqual([id]);
    expect((await listQuestions(deps, undefined, {})).questions).toEqual([]);
    expect(published.length).toBeGreaterThan(0);
  });
});
