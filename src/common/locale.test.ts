import { expect, test } from 'vitest';
import { byCodeUnits, byName, formatCount } from './locale.ts';

test("counts read as Intl's en-ZA writes them", () => {
  for (const count of [0, 7, 42, 200, 999, 1000, 2001, 10_000, 99_999, 123_456, 1_000_000, 1_234_567_890])
    expect(formatCount(count), String(count)).toBe(count.toLocaleString('en-ZA'));
});

test('ISO instants sort in time order', () => {
  const times = [
    '2026-11-21T10:00:00.000Z',
    '2026-01-02T09:00:00.000Z',
    '2026-11-21T09:59:59.999Z',
    '2025-12-31T23:00:00.000Z',
  ];
  expect([...times].sort(byCodeUnits)).toEqual([...times].sort((a, b) => Date.parse(a) - Date.parse(b)));
});

test('English titles sort as a collator that ignores case sorts them', () => {
  const names = [
    'Introduction to Calculus',
    'introduction to Python',
    'Data Structures & Algorithms',
    'Excel basics',
    'C++ for beginners',
    'C Programming',
    'Statistics 2',
    'Statistics 10',
    'Linear Algebra',
    'Java',
    'IT Fundamentals',
    'Grade 12 Maths',
    'Web Development (HTML, CSS)',
    'SQL databases',
  ].map((name) => ({ name }));
  const collator = new Intl.Collator('en-ZA', { sensitivity: 'base' });
  expect([...names].sort(byName)).toEqual([...names].sort((a, b) => collator.compare(a.name, b.name)));
});
