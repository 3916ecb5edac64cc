// The benchmarks' figures file (bench/results.ts, issue 35): each script's run replaces its own entries only,
// and the Markdown it renders is what Prettier would write, in lines no wider than 160 characters.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import prettier from 'prettier';
import { afterAll, beforeAll, expect, test } from 'vitest';
import {
  benchScripts,
  mergeRun,
  readRuns,
  recordResults,
  renderResults,
  wrap,
  type Machine,
  type Measurement,
  type ScriptRun,
} from '../bench/results.ts';

const machine: Machine = { cpu: 'Bench CPU @ 2.0GHz', cpus: 2, memoryGiB: 7.8, node: 'v24.21.0', load: 1.5 };
const scripts = ['bench/run.ts', 'bench/qa.ts', 'bench/outbox.ts'];

const publicReads = (ratio: number): Measurement => ({
  goal: 'Public reads ≥ 0.7× bare',
  measured: '`GET /api/health`',
  figure: { value: 9123.4, unit: 'req/s' },
  reference: { what: 'bare `node:http` sending the same bytes', figure: { value: 11_030, unit: 'req/s' } },
  ratio,
  target: '≥ 0.7',
  met: ratio >= 0.7,
});
const run = (script: string, measurements: Measurement[], date = '2026-12-02T08:41:30.000Z'): ScriptRun => ({
  script,
  date,
  machine,
  measurements,
});

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'bench-results-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

test("a script's run replaces its own earlier entries and leaves the other scripts' as they were", () => {
  const stored = [run('bench/run.ts', [publicReads(0.5)]), run('bench/qa.ts', [publicReads(0.6)])];
  const merged = mergeRun(stored, run('bench/run.ts', [publicReads(0.9)], '2026-12-03T10:00:00.000Z'));
  expect(merged.map((r) => [r.script, r.date, r.measurements[0]!.ratio])).toEqual([
    ['bench/run.ts', '2026-12-03T10:00:00.000Z', 0.9],
    ['bench/qa.ts', '2026-12-02T08:41:30.000Z', 0.6],
  ]);
  expect(mergeRun(merged, run('bench/outbox.ts', [])).map((r) => r.script)).toEqual([
    'bench/run.ts',
    'bench/qa.ts',
    'bench/outbox.ts',
  ]);
});

test('each goal is a list item with its figure, its reference, the ratio and whether it was met', () => {
  const markdown = renderResults([run('bench/run.ts', [publicReads(0.83)])], scripts);
  expect(markdown.split('\n').slice(0, 4)).toEqual([
    expect.stringContaining('Do not edit'),
    '',
    '# Benchmark results',
    '',
  ]);
  expect(markdown).toContain('Written by `npm run bench`; do not edit');
  expect(markdown).toContain(
    [
      '## `bench/run.ts`',
      '',
      '2026-12-02 08:41 UTC; Bench CPU @ 2.0GHz, 2 CPUs, 7.8 GiB, Node v24.21.0; load average 1.50 at the end.',
      '',
      '- **Public reads ≥ 0.7× bare**: `GET /api/health`: 9,123 req/s; reference: bare `node:http` sending the same bytes,',
      '  11,030 req/s; ratio 0.83; met (≥ 0.7).',
    ].join('\n'),
  );
  expect(renderResults([run('bench/run.ts', [publicReads(0.42)])], scripts)).toContain('ratio 0.42; NOT MET (≥ 0.7).');
});

test('a script that has not run says so under its heading', () => {
  const markdown = renderResults([run('bench/qa.ts', [publicReads(0.8)])], scripts);
  expect(markdown).toContain(
    '## `bench/run.ts`\n\nNot run since this file was introduced; run `node bench/run.ts`.\n\n## `bench/qa.ts`',
  );
  expect(markdown).toContain('## `bench/outbox.ts`\n\nNot run since this file was introduced');
});

test('long items wrap at 115 characters with two spaces before each further line, and never break a code span', () => {
  const lines = renderResults(
    [
      run('bench/qa.ts', [
        {
          goal: 'No request holds the loop > 50 ms',
          measured: `${'each read alone on one connection at 100,000 questions and 50,000 bookings, '.repeat(3)}the longest`,
          figure: { value: 12.345, unit: 'ms' },
          also: 'the longest: `GET /api/questions?q=I%20am%20stuck (every question, signed in)`; - 1. # > <b> = 3.',
          target: '≤ 50 ms',
          met: true,
        },
      ]),
    ],
    scripts,
  ).split('\n');
  const item = lines.slice(lines.findIndex((l) => l.startsWith('- **No request')));
  const end = item.findIndex((l) => !l.startsWith('  ') && !l.startsWith('- '));
  const wrapped = item.slice(0, end === -1 ? undefined : end);
  expect(wrapped.length).toBeGreaterThan(2);
  for (const line of wrapped) expect(line.length).toBeLessThanOrEqual(115);
  for (const line of wrapped.slice(1)) expect(line).toMatch(/^ {2}(?![-+*#>< ]|\d+\.)/);
  expect(wrapped.join('\n')).toContain('`GET /api/questions?q=I%20am%20stuck (every question, signed in)`');
  expect(wrapped.join(' ').replace(/\s+/g, ' ')).toContain('12.3 ms');
});

test('a further line never starts with what would begin another Markdown block', () => {
  for (const marker of ['-', '+', '*', '#', '###', '1.', '2)', '>', '>5', '<b>', '=', '---']) {
    const lines = wrap(`aaaa bbbb ${marker} cccc`, '- ', '  ', 12);
    expect(lines.join(' ').replace(/\s+/g, ' '), marker).toBe(`- aaaa bbbb ${marker} cccc`);
    for (const line of lines.slice(1)) expect(line, marker).not.toMatch(/^ {2}(?:[-+*#>=<]|\d+[.)])/);
  }
  expect(wrap('aaaa bbbb (1) cccc', '- ', '  ', 12)).toEqual(['- aaaa bbbb', '  (1) cccc']);
});

test('a number stays with its unit, a comparison with its number', () => {
  expect(wrap('aaaa bbbb 897 µs', '- ', '  ', 14)).toEqual(['- aaaa bbbb', '  897 µs']);
  expect(wrap('aaaa met (≥ 0.25).', '- ', '  ', 14)).toEqual(['- aaaa met', '  (≥ 0.25).']);
});

test('no line is wider than 160 characters: an unbreakable word longer than that is refused', () => {
  expect(wrap(`a ${'x'.repeat(150)} b`, '- ', '  ')).toEqual(['- a', `  ${'x'.repeat(150)}`, '  b']);
  expect(() => wrap(`a ${'x'.repeat(170)}`, '- ', '  ')).toThrow(/at most 160/);
});

test('the rendering is what Prettier writes, so `prettier --check` passes it unchanged', async () => {
  const runs = [
    run('bench/run.ts', [
      publicReads(0.83),
      {
        measured: '`GET /api/me`, visitor (401)',
        figure: { value: '<1', unit: 'ms p99' },
        reference: { what: 'bare `node:http`, same bytes', figure: { value: 0.5, unit: 'ms' } },
      },
    ]),
    run('bench/outbox.ts', [
      {
        measured: 'flush of 200 queued mutations',
        figure: { value: 812.6, unit: 'ms' },
        reference: { what: '200 plain sequential fetches', figure: { value: 402, unit: 'ms' } },
        ratio: 2.02,
        target: '≤ 3 s (issue 7)',
        met: true,
      },
    ]),
  ];
  const markdown = renderResults(runs, scripts);
  const file = path.join(import.meta.dirname, '../docs/bench-results.md');
  const config = { ...(await prettier.resolveConfig(file)), filepath: file };
  expect(await prettier.format(markdown, config)).toBe(markdown);
  for (const line of markdown.split('\n')) expect(line.length).toBeLessThanOrEqual(160);
});

test('recording writes the data and the Markdown, and a second run of a script replaces its entries', async () => {
  const files = { data: path.join(dir, 'results.json'), markdown: path.join(dir, 'bench-results.md') };
  const options = { files, scripts, machine };
  await recordResults('bench/run.ts', [publicReads(0.5)], { ...options, now: new Date('2026-12-02T08:00:00Z') });
  await recordResults(path.join(import.meta.dirname, '../bench/outbox.ts'), [publicReads(0.6)], {
    ...options,
    conditions: '5 interleaved rounds.',
    now: new Date('2026-12-02T08:10:00Z'),
  });
  await recordResults('bench/run.ts', [publicReads(0.9)], { ...options, now: new Date('2026-12-02T09:00:00Z') });

  expect(readRuns(files.data).map((r) => [r.script, r.date, r.measurements.map((m) => m.ratio)])).toEqual([
    ['bench/run.ts', '2026-12-02T09:00:00.000Z', [0.9]],
    ['bench/outbox.ts', '2026-12-02T08:10:00.000Z', [0.6]],
  ]);
  const markdown = await readFile(files.markdown, 'utf8');
  expect(markdown).toBe(renderResults(readRuns(files.data), scripts));
  expect(markdown).toContain('2026-12-02 09:00 UTC');
  expect(markdown).not.toContain('ratio 0.50');
  expect(markdown).toContain('5 interleaved rounds.');
  expect(markdown).toContain('## `bench/qa.ts`\n\nNot run since');
});

test("the scripts are npm run bench's, in its order", () => {
  expect(benchScripts().slice(0, 3)).toEqual(['bench/run.ts', 'bench/mixed.ts', 'bench/qa.ts']);
});
