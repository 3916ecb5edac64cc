import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { contractEngines, openFirestoreEngine, openSqlEngine } from '../../test/storage-engines.ts';
import { createProfileFirestoreRepository } from './profile.firestore.ts';
import type { ProfileRepository, StoredEnrolment } from './profile.storage.ts';
import { deadline } from '../../test/deadline.ts';

/**
 * The profile's repository contract (the users' enrolments), the same cases on SQL and on Firestore's
 * emulator; races run for real. A module deleted while someone enrols in it is refused by SQL's foreign key
 * only, so it is not a case here (profile.test.ts has it on SQL; the profile lists such an enrolment as a
 * module no longer offered on either engine).
 */
interface Engine {
  repo: ProfileRepository;
  transaction<T>(work: (repo: ProfileRepository) => Promise<T>): Promise<T>;
  /** A user and a module an enrolment may name (SQL's foreign keys want them). */
  newUser(): Promise<string>;
  newModule(): Promise<string>;
  close(): Promise<void>;
}

const now = '2026-11-24T10:00:00.000Z';

async function openSql(): Promise<Engine> {
  const { storage, close } = await openSqlEngine();
  return {
    repo: storage.repos.profile,
    transaction: (work) => storage.transaction((repos) => work(repos.profile)),
    async newUser() {
      const id = crypto.randomUUID();
      await storage.repos.accounts.insertInvited(
        { id, name: 'Sipho', email: `${id}@example.com`, role: 'student' },
        new Date(now),
      );
      return id;
    },
    async newModule() {
      const id = crypto.randomUUID();
      await storage.repos.catalogue.insert({
        id,
        slug: id,
        name: `Module ${id}`,
        category: 'Mathematics',
        priceCents: 10_000,
        description: 'A module.',
        topics: [],
        createdAt: now,
        updatedAt: now,
      });
      return id;
    },
    close,
  };
}

async function openFirestore(): Promise<Engine> {
  const { db, close } = await openFirestoreEngine('profile');
  return {
    repo: createProfileFirestoreRepository({ db }),
    transaction: (work) => db.runTransaction((tx) => work(createProfileFirestoreRepository({ db, tx }))),
    // No foreign keys: any id will do.
    newUser: () => Promise.resolve(crypto.randomUUID()),
    newModule: () => Promise.resolve(crypto.randomUUID()),
    close,
  };
}

const alreadyEnrolled = { code: 'profile.already_enrolled' };

describe.each(contractEngines(openSql, openFirestore))('the profile’s storage on %s', (_name, open) => {
  let engine: Engine;
  beforeAll(async () => {
    engine = await open();
  }, deadline(90_000));
  afterAll(() => engine.close());

  const enrolment = (userId: string, moduleId: string, createdAt = now) => ({
    id: crypto.randomUUID(),
    userId,
    moduleId,
    moduleName: 'Calculus',
    createdAt,
  });

  test('enrolments are read back whole, the user’s only, oldest first', async () => {
    const [me, other] = [await engine.newUser(), await engine.newUser()];
    const [a, b, c] = [await engine.newModule(), await engine.newModule(), await engine.newModule()];
    const later = enrolment(me, a, '2026-11-24T12:00:00.000Z');
    const sooner = enrolment(me, b, '2026-11-24T08:00:00.000Z');
    const sameTime = [enrolment(me, c), enrolment(other, c)];
    for (const e of [later, sooner, ...sameTime]) await engine.repo.insertEnrolment(e);
    const expected: StoredEnrolment[] = [sooner, sameTime[0]!, later];
    expect(await engine.repo.enrolmentsOf(me)).toEqual(expected);
    expect(await engine.repo.findEnrolment(later.id)).toEqual(later);
    expect(await engine.repo.findEnrolment(crypto.randomUUID())).toBeUndefined();
  });

  test('imported enrolments: one in a module the catalogue lacks is kept by its name, with no module', async () => {
    const [me, module] = [await engine.newUser(), await engine.newModule()];
    const known = { ...enrolment(me, module, '2026-11-24T08:00:00.000Z'), moduleName: 'Known Module' };
    const unknown = { ...enrolment(me, module), moduleId: null, moduleName: 'Quantum Basket Weaving' };
    const another = { ...enrolment(me, module), moduleId: null, moduleName: 'Old Module' };
    await engine.transaction(async (repo) => {
      await repo.insertImportedEnrolment(known);
      await repo.insertImportedEnrolment(unknown);
      await repo.insertImportedEnrolment(another);
    });
    expect(await engine.repo.enrolmentsOf(me)).toEqual([
      known,
      ...[unknown, another].sort((x, y) => (x.id < y.id ? -1 : 1)),
    ]);
    expect(await engine.repo.findEnrolment(unknown.id)).toEqual(unknown);
  });

  test('enrolments at the same time come by id', async () => {
    const me = await engine.newUser();
    const made = [];
    for (let i = 0; i < 4; i++) made.push(enrolment(me, await engine.newModule()));
    for (const e of made) await engine.repo.insertEnrolment(e);
    expect((await engine.repo.enrolmentsOf(me)).map((e) => e.id)).toEqual(made.map((e) => e.id).sort());
  });

  test('a second enrolment in the same module is refused and changes nothing', async () => {
    const [me, module] = [await engine.newUser(), await engine.newModule()];
    const first = enrolment(me, module);
    await engine.repo.insertEnrolment(first);
    await expect(engine.repo.insertEnrolment(enrolment(me, module))).rejects.toMatchObject(alreadyEnrolled);
    await expect(engine.transaction((repo) => repo.insertEnrolment(enrolment(me, module)))).rejects.toMatchObject(
      alreadyEnrolled,
    );
    expect(await engine.repo.enrolmentsOf(me)).toEqual([first]);
  });

  test('of five enrolments in one module at once (a double click), one is stored', async () => {
    const [me, module] = [await engine.newUser(), await engine.newModule()];
    const results = await Promise.allSettled(
      Array.from({ length: 5 }, (_, i) =>
        i % 2
          ? engine.repo.insertEnrolment(enrolment(me, module))
          : engine.transaction((repo) => repo.insertEnrolment(enrolment(me, module))),
      ),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    for (const r of results) if (r.status === 'rejected') expect(r.reason).toMatchObject(alreadyEnrolled);
    expect(await engine.repo.enrolmentsOf(me)).toHaveLength(1);
  });

  test('an enrolment is deleted only by its user; deleting all of a user’s leaves others’', async () => {
    const [me, other, module] = [await engine.newUser(), await engine.newUser(), await engine.newModule()];
    const mine = enrolment(me, module);
    const theirs = enrolment(other, module);
    await engine.repo.insertEnrolment(mine);
    await engine.repo.insertEnrolment(theirs);
    await engine.repo.deleteEnrolment(mine.id, other);
    expect(await engine.repo.findEnrolment(mine.id)).toEqual(mine);
    await engine.repo.deleteEnrolment(mine.id, me);
    expect(await engine.repo.findEnrolment(mine.id)).toBeUndefined();
    // Enrolling again after leaving is a new enrolment.
    await engine.repo.insertEnrolment(enrolment(me, module));
    await engine.repo.insertEnrolment(enrolment(me, await engine.newModule()));
    await engine.repo.deleteEnrolmentsOf(me);
    expect(await engine.repo.enrolmentsOf(me)).toEqual([]);
    expect(await engine.repo.enrolmentsOf(other)).toEqual([theirs]);
  });
});
