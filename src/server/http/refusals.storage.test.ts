import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createAccountsFirestoreRepository } from '../auth/accounts.firestore.ts';
import type { AccountsRepository } from '../auth/accounts.storage.ts';
import { contractEngines, openFirestoreEngine, openSqlEngine } from '../test/storage-engines.ts';
import { createRefusalsFirestoreRepository } from './refusals.firestore.ts';
import type { ChangeRefusal, RefusalsRepository } from './refusals.storage.ts';
import { deadline } from '../test/deadline.ts';

/** The refusals' repository contract, the same cases on SQL and on Firestore's emulator; races run for real. */
interface Engine {
  repo: RefusalsRepository;
  accounts: AccountsRepository;
  close(): Promise<void>;
}

async function openSql(): Promise<Engine> {
  const sql = await openSqlEngine();
  return { repo: sql.storage.repos.refusals, accounts: sql.storage.repos.accounts, close: sql.close };
}

async function openFirestore(): Promise<Engine> {
  const { db, close } = await openFirestoreEngine('refusals');
  return {
    repo: createRefusalsFirestoreRepository({ db }),
    accounts: createAccountsFirestoreRepository({ db }),
    close,
  };
}

const earlier = '2026-11-20T10:00:00.000Z';
const now = '2026-11-24T10:00:00.000Z';
const expiredBefore = '2026-11-23T10:00:00.000Z';

describe.each(contractEngines(openSql, openFirestore))('the refusals’ storage on %s', (_name, open) => {
  let engine: Engine;
  beforeAll(async () => {
    engine = await open();
  }, deadline(90_000));
  afterAll(() => engine.close());

  async function newUser() {
    const id = crypto.randomUUID();
    await engine.accounts.insertInvited(
      { id, name: 'Thandi', email: `${id}@example.com`, role: 'student' },
      new Date(earlier),
    );
    return id;
  }
  const refusal = (userId: string, extra: Partial<ChangeRefusal> = {}): ChangeRefusal => ({
    userId,
    changeId: crypto.randomUUID(),
    status: 409,
    body: '{"error":{"code":"x","message":"No."}}',
    createdAt: now,
    ...extra,
  });

  test('a refusal stored is found by its user and change, not by another user nor once it is too old', async () => {
    const [me, other] = [await newUser(), await newUser()];
    const stored = refusal(me);
    expect(await engine.repo.store(stored, expiredBefore)).toBe(true);
    expect(await engine.repo.find(me, stored.changeId, expiredBefore)).toEqual({
      status: 409,
      body: stored.body,
    });
    expect(await engine.repo.find(other, stored.changeId, expiredBefore)).toBeUndefined();
    expect(await engine.repo.find(me, stored.changeId, '2026-11-25T00:00:00.000Z')).toBeUndefined();
    expect(await engine.repo.find(me, crypto.randomUUID(), expiredBefore)).toBeUndefined();
  });

  test('a second refusal of the same change is not stored; the first stays', async () => {
    const me = await newUser();
    const first = refusal(me);
    expect(await engine.repo.store(first, expiredBefore)).toBe(true);
    expect(await engine.repo.store({ ...first, status: 422, body: '{}' }, expiredBefore)).toBe(false);
    expect(await engine.repo.find(me, first.changeId, expiredBefore)).toEqual({ status: 409, body: first.body });
  });

  test('of five stores of one change at once, one is stored and every one then finds it', async () => {
    const me = await newUser();
    const changeId = crypto.randomUUID();
    const results = await Promise.all(
      Array.from({ length: 5 }, (_, i) =>
        engine.repo.store(refusal(me, { changeId, body: `{"n":${i}}` }), expiredBefore),
      ),
    );
    expect(results.filter(Boolean)).toHaveLength(1);
    const winner = results.indexOf(true);
    expect(await engine.repo.find(me, changeId, expiredBefore)).toEqual({ status: 409, body: `{"n":${winner}}` });
  });

  test('storing deletes expired refusals, which frees an expired change id', async () => {
    const me = await newUser();
    const old = refusal(me, { createdAt: earlier });
    const otherOld = refusal(me, { createdAt: earlier });
    expect(await engine.repo.store(old, '2026-01-01T00:00:00.000Z')).toBe(true);
    expect(await engine.repo.store(otherOld, '2026-01-01T00:00:00.000Z')).toBe(true);
    expect(await engine.repo.store({ ...old, createdAt: now, body: '{"again":true}' }, expiredBefore)).toBe(true);
    expect(await engine.repo.find(me, old.changeId, '2026-01-01T00:00:00.000Z')).toEqual({
      status: 409,
      body: '{"again":true}',
    });
    expect(await engine.repo.find(me, otherOld.changeId, '2026-01-01T00:00:00.000Z')).toBeUndefined();
  });

  test('deleting a user’s refusals leaves other users’ alone', async () => {
    const [me, other] = [await newUser(), await newUser()];
    const mine = [refusal(me), refusal(me)];
    const theirs = refusal(other);
    for (const r of [...mine, theirs]) await engine.repo.store(r, expiredBefore);
    await engine.repo.deleteOf(me);
    for (const r of mine) expect(await engine.repo.find(me, r.changeId, expiredBefore)).toBeUndefined();
    expect(await engine.repo.find(other, theirs.changeId, expiredBefore)).toBeDefined();
  });
});
