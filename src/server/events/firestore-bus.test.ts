import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { connectFirestore, type FirestoreConnection } from '../storage/firestore/connect.ts';
import { waitFor } from '../test/harness.ts';
import { startFirestoreEmulator, type FirestoreEmulator } from '../test/firestore-emulator.ts';
import type { BusMessage, ChangeNotice, EventBus } from './events.ts';
import { busCollection, createFirestoreBus } from './firestore-bus.ts';
import { deadline } from '../test/deadline.ts';

/**
 * Two server processes on one Firestore project, as two buses on two connections to one emulator project:
 * each delivers the other's notices, in the order they were published, once each, and its own once.
 */
let emulator: FirestoreEmulator;
const connections: FirestoreConnection[] = [];
const buses: EventBus[] = [];

async function openBus(
  projectId: string,
): Promise<{ bus: EventBus; heard: BusMessage[]; connection: FirestoreConnection }> {
  const connection = await connectFirestore({
    projectId,
    emulatorHost: emulator.host,
    probeTimeoutMs: deadline(10_000),
  });
  connections.push(connection);
  const bus = await createFirestoreBus({ firestore: connection.firestore, logger: pino({ level: 'silent' }) });
  buses.push(bus);
  const heard: BusMessage[] = [];
  bus.subscribe((message) => heard.push(message));
  return { bus, heard, connection };
}

const tablesOf = (heard: BusMessage[]) =>
  heard.flatMap((m) => (m.type === 'notice' ? [`${m.event.table}:${m.event.ids.join(',')}`] : [m.type]));

describe('the Firestore event bus', () => {
  beforeAll(async () => {
    emulator = await startFirestoreEmulator();
  }, deadline(90_000));

  afterAll(async () => {
    for (const bus of buses) await bus.close();
    for (const connection of connections) await connection.close();
    await emulator?.stop();
  });

  test("two processes deliver each other's notices in order, once each, and their own once", async () => {
    const projectId = `demo-bus-${crypto.randomUUID().slice(0, 8)}`;
    const [a, b] = [await openBus(projectId), await openBus(projectId)];
    const count = 25;
    const fromA = Array.from({ length: count }, (_, i) => `a:${i}`);
    const fromB = Array.from({ length: count }, (_, i) => `b:${i}`);
    // Both at once, interleaved: each publisher's own order must survive the other's writes.
    for (let i = 0; i < count; i++) {
      a.bus.publish({ table: 'a', ids: [String(i)], audience: 'everyone', version: i + 1 });
      b.bus.publish({ table: 'b', ids: [String(i)], audience: { userIds: ['u1'] } });
    }
    for (const side of [a, b])
      await waitFor(async () => side.heard.length >= 2 * count, 'every notice on both sides', 20_000);
    // A moment more: a notice delivered twice would arrive now.
    await new Promise((resolve) => setTimeout(resolve, 500));
    for (const side of [a, b]) {
      const heard = tablesOf(side.heard);
      expect(heard).toHaveLength(2 * count);
      expect(heard.filter((t) => t.startsWith('a:'))).toEqual(fromA);
      expect(heard.filter((t) => t.startsWith('b:'))).toEqual(fromB);
    }
    // The notice arrives as it was published: version and audience too, with an id of the receiving bus.
    const first = b.heard.find((m) => m.type === 'notice' && m.event.table === 'a');
    expect(first).toMatchObject({ event: { table: 'a', ids: ['0'], audience: 'everyone', version: 1 } });
    const fromOther = a.heard.find((m) => m.type === 'notice' && m.event.table === 'b');
    expect(fromOther).toMatchObject({ event: { audience: { userIds: ['u1'] } } });
    expect((fromOther as { event: ChangeNotice }).event).not.toHaveProperty('version');
  });

  test('a burst of more notices than one batch holds arrives whole and in order, and close waits for it', async () => {
    const projectId = `demo-bus-${crypto.randomUUID().slice(0, 8)}`;
    const [a, b] = [await openBus(projectId), await openBus(projectId)];
    const count = 1200;
    for (let i = 0; i < count; i++) a.bus.publish({ table: 'burst', ids: [String(i)], audience: 'everyone' });
    // Closed at once, as a CLI that publishes then stops: its notices still leave.
    await a.bus.close();
    await waitFor(async () => b.heard.length >= count, 'the whole burst on the other side', 30_000);
    expect(tablesOf(b.heard)).toEqual(Array.from({ length: count }, (_, i) => `burst:${i}`));
  }, 60_000);

  test('a malformed notice document is ignored; notices after it still arrive', async () => {
    const projectId = `demo-bus-${crypto.randomUUID().slice(0, 8)}`;
    const [a, b] = [await openBus(projectId), await openBus(projectId)];
    await a.connection.firestore.collection(busCollection).add({ table: 7, from: 'elsewhere', at: new Date() });
    a.bus.publish({ table: 'questions', ids: ['q1'], audience: 'everyone' });
    await waitFor(async () => b.heard.length >= 1, 'the notice after the malformed one');
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(tablesOf(b.heard)).toEqual(['questions:q1']);
  });

  test('notices of another project are not heard', async () => {
    const a = await openBus(`demo-bus-${crypto.randomUUID().slice(0, 8)}`);
    const b = await openBus(`demo-bus-${crypto.randomUUID().slice(0, 8)}`);
    a.bus.publish({ table: 'questions', ids: ['q1'], audience: 'everyone' });
    await new Promise((resolve) => setTimeout(resolve, 700));
    expect(tablesOf(a.heard)).toEqual(['questions:q1']);
    expect(b.heard).toEqual([]);
  });

  test('close waits for the notices still being written', async () => {
    const projectId = `demo-bus-${crypto.randomUUID().slice(0, 8)}`;
    const b = await openBus(projectId);
    const a = await openBus(projectId);
    a.bus.publish({ table: 'staff', ids: ['s1'], audience: {} });
    await a.bus.close();
    await waitFor(async () => b.heard.length >= 1, 'the notice published before close');
    expect(tablesOf(b.heard)).toEqual(['staff:s1']);
  });
});
