import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { loadEnv } from './env.ts';
import type { BusMessage } from './events/events.ts';
import { createServices, type Services } from './server.ts';
import { firestoreRepositoryFactories, repositoryNames } from './storage/repositories.ts';
import type { FirestoreRepositoryFactories } from './storage/firestore-storage.ts';
import type { Repositories } from './storage/storage.ts';
import { startFirestoreEmulator, type FirestoreEmulator } from './test/firestore-emulator.ts';
import { createVerifiedUser, findClosedPort, waitFor, type TestServer } from './test/harness.ts';
import { deadline } from './test/deadline.ts';

/**
 * The server put together on Firestore (server.ts): refused while the engine lacks a feature's repository,
 * and, given every repository, started on the emulator with its bus between two processes. The features the
 * engine does not have yet are stand-ins that refuse every call; the catalogue, auth and the bus are real.
 */
let emulator: FirestoreEmulator;
let dataDir: string;
const opened: Services[] = [];

function envFor(projectId: string, emulatorHost: string) {
  return loadEnv({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    DATA_DIR: dataDir,
    DATABASE_URL: `firestore://${projectId}`,
    FIRESTORE_EMULATOR_HOST: emulatorHost,
    PUBLIC_URL: 'http://127.0.0.1:3998',
  });
}

const standIn = (name: string) => () =>
  new Proxy(
    {},
    {
      get: (_, method) =>
        method === 'then' || typeof method === 'symbol'
          ? undefined
          : () => Promise.reject(new Error(`stand-in ${name}.${String(method)}`)),
    },
  ) as never;

/** The engine's factories, with stand-ins for those it lacks (until they are written: issue 21). */
const everyFactory = (): FirestoreRepositoryFactories => {
  const all: FirestoreRepositoryFactories = { ...firestoreRepositoryFactories };
  const names: (keyof Repositories)[] = ['accounts', 'bookings', 'catalogue', 'outbox', 'profile', 'refusals', 'qa'];
  for (const name of names) all[name] ??= standIn(name);
  return all;
};

describe('the server on Firestore', () => {
  beforeAll(async () => {
    emulator = await startFirestoreEmulator();
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'firestore-server-'));
  }, deadline(90_000));

  afterAll(async () => {
    for (const services of opened) await services.close();
    await emulator?.stop();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  test('start-up refuses the engine while it lacks a repository, naming them, before connecting', async () => {
    // Nothing listens there: a start that tried to connect would fail otherwise, and later.
    const env = envFor('demo-lacking', `127.0.0.1:${await findClosedPort()}`);
    const started = Date.now();
    const onlyCatalogue = { catalogue: firestoreRepositoryFactories.catalogue };
    // Every other repository, named in the list's order (a feature added to the list is named with them).
    const others = repositoryNames.filter((name) => name !== 'catalogue');
    expect(others).toEqual(expect.arrayContaining(['accounts', 'bookings', 'qa']));
    await expect(createServices(env, { firestoreFactories: onlyCatalogue })).rejects.toThrow(
      `DATABASE_URL: the Firestore engine lacks the ${others.join(', ')} repositories`,
    );
    expect(Date.now() - started).toBeLessThan(2_000);
    await expect(createServices(env, { firestoreFactories: { ...everyFactory(), qa: undefined } })).rejects.toThrow(
      /lacks the qa repository \(issue 21\)/,
    );
  });

  test('given every repository, two processes on one project serve and hear each other', async () => {
    const projectId = `demo-server-${crypto.randomUUID().slice(0, 8)}`;
    const env = envFor(projectId, emulator.host);
    const first = await createServices(env, { firestoreFactories: everyFactory() });
    opened.push(first);
    const second = await createServices(env, { firestoreFactories: everyFactory() });
    opened.push(second);

    expect(first.kind).toBe('firestore');
    expect(() => first.db).toThrow(/runs on firestore/);
    const health = await first.app.fetch(new Request('http://127.0.0.1:3998/api/health'));
    expect(health.status).toBe(200);

    // The catalogue is Firestore's own: a module written by one process is read by the other.
    const module = await first.deps.repos.catalogue.insert({
      id: crypto.randomUUID(),
      slug: 'calculus',
      name: 'Calculus',
      category: 'Mathematics',
      priceCents: 25_000,
      description: 'Limits and derivatives.',
      topics: ['Limits'],
      createdAt: '2026-11-25T01:00:00.000Z',
      updatedAt: '2026-11-25T01:00:00.000Z',
    });
    expect(await second.deps.repos.catalogue.findById(module.id)).toEqual(module);

    const heard: BusMessage[] = [];
    second.bus.subscribe((message) => heard.push(message));
    first.bus.publish({ table: 'modules', ids: [module.id], audience: 'everyone' });
    await waitFor(async () => heard.length > 0, 'the notice in the other process');
    expect(heard[0]).toMatchObject({ type: 'notice', event: { table: 'modules', ids: [module.id] } });

    // better-auth on Firestore: the harness's verified user (createVerifiedUser) logs in with its password.
    const user = await createVerifiedUser({ services: first } as TestServer);
    const login = await second.auth.handler(
      new Request('http://127.0.0.1:3998/api/auth/sign-in/email', {
        method: 'POST',
        headers: { origin: 'http://127.0.0.1:3998', 'content-type': 'application/json' },
        body: JSON.stringify({ email: user.email, password: user.password }),
      }),
    );
    expect(login.status, await login.clone().text()).toBe(200);
    expect((await login.json()) as unknown).toMatchObject({ user: { id: user.id, email: user.email } });
  });
});
