import { expect, test } from 'vitest';
import { isAppError } from '../http/errors.ts';
import { transactionGate } from './transaction-gate.ts';

const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

test('at most so many transactions run at once; the others begin in the order they came', async () => {
  const gate = transactionGate(2, 5_000);
  let running = 0;
  let most = 0;
  const began: number[] = [];
  await Promise.all(
    Array.from({ length: 6 }, (_, i) =>
      gate(async () => {
        began.push(i);
        running += 1;
        most = Math.max(most, running);
        await delay(20);
        running -= 1;
        return i;
      }),
    ),
  );
  expect(most).toBe(2);
  expect(began).toEqual([0, 1, 2, 3, 4, 5]);
});

test('one that waited past its time is refused with 503 and never runs; a failure frees its place', async () => {
  const gate = transactionGate(1, 50);
  const ran: string[] = [];
  const long = gate(async () => {
    ran.push('long');
    await delay(200);
  });
  const late = gate(async () => void ran.push('late'));
  const refusal = await late.then(
    () => undefined,
    (error: unknown) => error,
  );
  expect(isAppError(refusal) && refusal.status).toBe(503);
  expect(isAppError(refusal) && refusal.retryAfterSeconds).toBeGreaterThan(0);
  await long;
  await expect(gate(() => Promise.reject(new Error('refused by a rule')))).rejects.toThrow('refused by a rule');
  await gate(async () => void ran.push('after'));
  expect(ran).toEqual(['long', 'after']);
});
