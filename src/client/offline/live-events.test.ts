import { describe, expect, test } from 'vitest';
import { createDelivery, parseChange, parsePosition, readBefore, type LiveMessage } from './live-events.ts';

function recorder(remember?: number) {
  const heard: string[] = [];
  const deliver = createDelivery(
    {
      onChange: (table, ids, leading) => heard.push(`${table}:${ids.join(',')}${leading ? ' (here)' : ''}`),
      onResync: (leading) => heard.push(`resync${leading ? ' (here)' : ''}`),
    },
    remember,
  );
  return { heard, deliver: (message: LiveMessage, leading = false) => deliver(message, leading) };
}

const change = (id: string, table = 'questions', ids = ['q1']): LiveMessage => ({ type: 'change', id, table, ids });

describe('parseChange', () => {
  test('reads a notice with its event id', () => {
    expect(parseChange('7', '{"table":"questions","ids":["q1","q2"]}')).toEqual({
      type: 'change',
      id: '7',
      table: 'questions',
      ids: ['q1', 'q2'],
    });
  });

  test('keeps the version the change committed at, when the notice says it and it is a whole number', () => {
    expect(parseChange('8', '{"table":"bookings","ids":["b1"],"version":42}')).toEqual({
      type: 'change',
      id: '8',
      table: 'bookings',
      ids: ['b1'],
      version: 42,
    });
    expect(parseChange('9', '{"table":"bookings","ids":["b1"],"version":"42"}')).not.toHaveProperty('version');
  });

  test('ignores what is not a notice', () => {
    for (const data of [
      '',
      'not json',
      'null',
      '[]',
      '{"table":"questions"}',
      '{"table":1,"ids":[]}',
      '{"table":"questions","ids":[1]}',
    ]) {
      expect(parseChange('7', data), data).toBeUndefined();
    }
  });
});

describe('createDelivery', () => {
  test('hands each notice on once, even when it arrives again', () => {
    const { heard, deliver } = recorder();
    deliver(change('1'));
    deliver(change('2', 'answers', ['a1', 'a2']));
    deliver(change('1'));
    expect(heard).toEqual(['questions:q1', 'answers:a1,a2']);
  });

  test('every resync is handed on: each may follow a different gap', () => {
    const { heard, deliver } = recorder();
    deliver({ type: 'resync' });
    deliver({ type: 'resync' });
    expect(heard).toEqual(['resync', 'resync']);
  });

  test('notices without an id cannot be told apart, so all are handed on', () => {
    const { heard, deliver } = recorder();
    deliver(change(''));
    deliver(change(''));
    expect(heard).toEqual(['questions:q1', 'questions:q1']);
  });

  test('remembers only the latest ids, so a long session does not grow without end', () => {
    const { heard, deliver } = recorder(2);
    deliver(change('1'));
    deliver(change('2'));
    deliver(change('3'));
    deliver(change('2'));
    deliver(change('1'));
    expect(heard).toEqual(['questions:q1', 'questions:q1', 'questions:q1', 'questions:q1']);
  });

  test("says whether the notice was heard on this tab's own stream, so that only that tab need fetch", () => {
    const { heard, deliver } = recorder();
    deliver(change('1'), true);
    deliver(change('2'), false);
    deliver({ type: 'resync' }, true);
    expect(heard).toEqual(['questions:q1 (here)', 'questions:q1', 'resync (here)']);
  });
});

describe('the first stream of a page', () => {
  test('reads its position from the ready event', () => {
    expect(parsePosition('{"position":"a1.0.7"}')).toBe('a1.0.7');
    for (const data of ['', 'null', '{}', '{"position":7}', 'not json']) expect(parsePosition(data)).toBeUndefined();
  });

  test('catches up only when a read began at another position: a change came between that read and the stream', async () => {
    const at = (position: string | null) => Promise.resolve(position);
    expect(await readBefore([], 'a.0.7')).toBe(false);
    expect(await readBefore([at('a.0.7'), at(null), at('a.0.7')], 'a.0.7')).toBe(false);
    expect(await readBefore([at('a.0.7'), at('a.0.6')], 'a.0.7')).toBe(true);
    // A read still under way when the stream opens counts once it is answered.
    let answer!: (position: string) => void;
    const late = readBefore([new Promise<string>((resolve) => (answer = resolve))], 'a.0.7');
    answer('b.0.7');
    expect(await late).toBe(true);
  });

  test("a public read carries the start of a signed-in stream's position: it matches when the public part does", async () => {
    const at = (position: string | null) => Promise.resolve(position);
    // The catalogue (a visitor's position) and the user's bookings, then the user's stream.
    expect(await readBefore([at('a.0.p1'), at('a.0.p1.u4')], 'a.0.p1.u4')).toBe(false);
    // A public notice came between the catalogue's read and the stream.
    expect(await readBefore([at('a.0.p1'), at('a.0.p2.u4')], 'a.0.p2.u4')).toBe(true);
    // One of the user's own notices came between the bookings' read and the stream.
    expect(await readBefore([at('a.0.p1'), at('a.0.p1.u4')], 'a.0.p1.u5')).toBe(true);
    // Only a whole part counts: `p1` is not the start of `p12`.
    expect(await readBefore([at('a.0.p1')], 'a.0.p12.u4')).toBe(true);
    // A signed-in read never matches a visitor's stream: the user's notices are not in it.
    expect(await readBefore([at('a.0.p1.u4')], 'a.0.p1')).toBe(true);
  });
});
