import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { isAppError } from '../http/errors.ts';
import { createCatalogueFirestoreRepository } from '../modules/catalogue/catalogue.firestore.ts';
import type { NewModule } from '../modules/catalogue/catalogue.storage.ts';
import { startFirestoreEmulator, type FirestoreEmulator } from '../test/firestore-emulator.ts';
import { connectFirestore, type FirestoreConnection } from './firestore/connect.ts';
import { createFirestoreStorage, missingRepositories } from './firestore-storage.ts';
import type { Storage } from './storage.ts';
import { deadline } from '../test/deadline.ts';

/**
 * The Firestore engine put together (firestore-storage.ts) on Google's emulator, with the repositories it has:
 * transactions commit or roll back whole, contention that outlasts the attempts is a 503, and a repository the
 * engine lacks says so by name.
 */
let emulator: FirestoreEmulator;
const opened: FirestoreConnection[] = [];

async function open(options: { maxAttempts?: number } = {}): Promise<Storage> {
  const connection = await connectFirestore({
    projectId: `demo-storage-${crypto.randomUUID().slice(0, 8)}`,
    emulatorHost: emulator.host,
    probeTimeoutMs: deadline(10_000),
  });
  opened.push(connection);
  return createFirestoreStorage(connection, {
    factories: { catalogue: createCatalogueFirestoreRepository },
    ...options,
  });
}

const now = '2026-11-25T01:00:00.000Z';
const newModule = (name: string): NewModule => ({
  id: crypto.randomUUID(),
  slug: name.toLowerCase().replaceAll(/[^a-z0-9]+/g, '-'),
  name,
  category: 'Mathematics',
  priceCents: 20_000,
  description: `About ${name}.`,
  topics: ['Limits'],
  createdAt: now,
  updatedAt: now,
});

describe('the Firestore storage', () => {
  beforeAll(async () => {
    emulator = await startFirestoreEmulator();
  }, deadline(90_000));

  afterAll(async () => {
    for (const connection of opened) await connection.close();
    await emulator?.stop();
  });

  test('its repositories work outside a transaction, and it answers the health check', async () => {
    const storage = await open();
    expect(storage.kind).toBe('firestore');
    const module = await storage.repos.catalogue.insert(newModule('Calculus One'));
    expect(await storage.repos.catalogue.findById(module.id)).toEqual(module);
    expect(await storage.ping()).toBe(true);
  });

  // A module is three documents (the module and its two unique keys), all written by one insert: the
  // transaction's reads, then its writes, as Firestore requires.
  test('a transaction commits all its writes, or none when it throws', async () => {
    const storage = await open();
    const algebra = await storage.transaction((repos) => repos.catalogue.insert(newModule('Algebra')));
    expect(await storage.repos.catalogue.findByName('ALGEBRA')).toEqual(algebra);
    expect(await storage.repos.catalogue.findClash('Other', 'algebra')).toBe(algebra.id);

    const failure = new Error('changed my mind');
    await expect(
      storage.transaction(async (repos) => {
        await repos.catalogue.insert(newModule('Trigonometry'));
        throw failure;
      }),
    ).rejects.toBe(failure);
    expect((await storage.repos.catalogue.list()).map((m) => m.name)).toEqual(['Algebra']);
    expect(await storage.repos.catalogue.findClash('Trigonometry', 'trigonometry')).toBeUndefined();
  });

  test('contention that outlasts the attempts is a 503 that says to try again; the data stays whole', async () => {
    // One attempt each: writers of one module at once must lose to each other on the emulator.
    const storage = await open({ maxAttempts: 1 });
    const module = await storage.repos.catalogue.insert(newModule('Statistics'));
    const results = await Promise.allSettled(
      Array.from({ length: 8 }, () =>
        storage.transaction(async (repos) => {
          const current = await repos.catalogue.findById(module.id);
          return repos.catalogue.update(module.id, { priceCents: (current?.priceCents ?? 0) + 100, updatedAt: now });
        }),
      ),
    );
    const refused = results.filter((r) => r.status === 'rejected').map((r) => r.reason as unknown);
    expect(refused.length, 'no transaction lost: nothing was tested').toBeGreaterThan(0);
    for (const reason of refused) {
      expect(isAppError(reason), String(reason)).toBe(true);
      expect(reason).toMatchObject({ status: 503, code: 'storage.busy', message: expect.stringMatching(/try again/) });
    }
    // Every commit counted once: the price rose by 100 per transaction that went through.
    const committed = results.length - refused.length;
    expect((await storage.repos.catalogue.findById(module.id))?.priceCents).toBe(20_000 + 100 * committed);
  });

  test('a repository it lacks refuses every call by name, and start-up can list them', async () => {
    const storage = await open();
    expect(() => storage.repos.qa.findQuestion('x')).toThrow('the Firestore engine lacks the qa repository');
    expect(missingRepositories({ catalogue: createCatalogueFirestoreRepository })).toEqual([
      'accounts',
      'availability',
      'bookings',
      'calendarFeeds',
      'groups',
      'importLedger',
      'outbox',
      'notices',
      'noticeDeliveries',
      'payments',
      'packages',
      'sessionOffers',
      'profile',
      'refusals',
      'qa',
      'testimonials',
    ]);
  });
});
