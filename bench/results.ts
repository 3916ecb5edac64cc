import { readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import prettier from 'prettier';

/**
 * The figures of `npm run bench`, written by the benchmarks themselves (issue 35): each script calls
 * `recordResults` at its end with what it measured; its entries replace that script's earlier ones in
 * `bench/results.json`, and `docs/bench-results.md` is rendered again from all of them. Nobody writes figures
 * by hand: a script that has not run since says so under its heading.
 */

const root = path.resolve(import.meta.dirname, '..');
export const defaultFiles = {
  data: path.join(root, 'bench/results.json'),
  markdown: path.join(root, 'docs/bench-results.md'),
};

/** A number and its unit ('' for none); a string value is shown as it is ("<1", where autocannon reads 0). */
export interface Figure {
  value: number | string;
  unit: string;
}

export interface Measurement {
  /** The goal's name as docs/benchmarks.md gives it; none for the figures kept beside the goals. */
  goal?: string;
  /** What was measured, in Markdown (code in backticks): "`GET /api/health`". */
  measured: string;
  figure: Figure;
  /** What the figure is compared with, measured in the same run. */
  reference?: { what: string; figure: Figure };
  /** figure ÷ reference, as the script computes it (some take the median of each round's ratio). */
  ratio?: number;
  /** The threshold the script checks ("≥ 0.7", "p99 < 20 ms"), and whether it was met. */
  target?: string;
  met?: boolean;
  /** Other figures of the same measurement ("CPU 48 µs/request, bare 21"). */
  also?: string;
}

export interface Machine {
  cpu: string;
  cpus: number;
  memoryGiB: number;
  node: string;
  /** The one-minute load average when the script recorded its figures: how busy the machine was. */
  load: number;
}

export interface ScriptRun {
  /** The script's path from the repository's root: "bench/run.ts". */
  script: string;
  /** When the figures were recorded, ISO 8601. */
  date: string;
  machine: Machine;
  /** How the script ran, in a sentence: connections, rounds, seconds. */
  conditions?: string;
  measurements: Measurement[];
}

export function thisMachine(): Machine {
  const cpus = os.cpus();
  return {
    cpu: cpus[0]?.model.trim().replace(/\s+/g, ' ') ?? 'unknown CPU',
    cpus: cpus.length,
    memoryGiB: Math.round((os.totalmem() / 2 ** 30) * 10) / 10,
    node: process.version,
    load: Math.round(os.loadavg()[0]! * 100) / 100,
  };
}

/** The stored runs with `run` in place of its script's earlier one (or added), in the order they came. */
export function mergeRun(stored: readonly ScriptRun[], run: ScriptRun): ScriptRun[] {
  const at = stored.findIndex((s) => s.script === run.script);
  return at === -1 ? [...stored, run] : stored.map((s, i) => (i === at ? run : s));
}

/** The scripts of `npm run bench`, in its order, from package.json. */
export function benchScripts(packageJson = path.join(root, 'package.json')): string[] {
  const { scripts } = JSON.parse(readFileSync(packageJson, 'utf8')) as { scripts: Record<string, string> };
  return [...(scripts.bench ?? '').matchAll(/bench\/[\w-]+\.ts/g)].map((m) => m[0]);
}

/** Lines are wrapped at this width, and none may be wider than `maxWidth` (a long unbroken word, say). */
export const wrapWidth = 115;
export const maxWidth = 160;

/**
 * `text` in lines of at most `width` characters, the first starting with `first`, the others with `next`.
 * Words break at spaces, never inside a code span; a line never starts with what would begin another block in
 * Markdown (a list marker such as "-" or "1.", a heading's "#", a quote's ">", an HTML tag's "<").
 */
export function wrap(text: string, first = '', next = '', width = wrapWidth): string[] {
  // A number or a comparison stays with the word after it: "897 µs/request", "(≥ 0.25)".
  const words = (text.match(/(?:`[^`]*`|[^\s`])+/g) ?? []).reduce<string[]>((glued, word) => {
    const last = glued.at(-1);
    if (last !== undefined && /^\(?(?:[≥≤<>=]|[<>]?[\d.,]+)$/.test(last.split(' ').at(-1)!))
      glued[glued.length - 1] += ` ${word}`;
    else glued.push(word);
    return glued;
  }, []);
  // Kept on the line before, even past `width`: at a line's start it would begin another block.
  const startsBlock = (word: string) =>
    /^(?:[-+*]|#{1,6}|\d{1,9}[.)]|[=_*-]+|~~~.*|```.*|[>|<].*)$/.test(word.split(' ')[0]!);
  const lines: string[] = [];
  let line = first;
  let empty = true;
  for (const word of words) {
    const fits = line.length + 1 + word.length <= width;
    if (empty || fits || startsBlock(word)) {
      line += empty ? word : ` ${word}`;
      empty = false;
    } else {
      lines.push(line);
      line = next + word;
    }
  }
  lines.push(line);
  for (const l of lines)
    if (l.length > maxWidth) throw new Error(`A line of ${l.length} characters (at most ${maxWidth}): ${l}`);
  return lines;
}

const numberFormats = [0, 1, 2].map((digits) => new Intl.NumberFormat('en-US', { maximumFractionDigits: digits }));
/** Whole numbers from 100, one decimal from 10, two below: the precision the figures carry. */
export function formatFigure({ value, unit }: Figure): string {
  const shown =
    typeof value === 'string'
      ? value
      : numberFormats[Math.abs(value) >= 100 ? 0 : Math.abs(value) >= 10 ? 1 : 2]!.format(value);
  return unit ? `${shown} ${unit}` : shown;
}

function item(m: Measurement): string[] {
  const parts = [`${m.goal ? `**${m.goal}**: ` : ''}${m.measured}: ${formatFigure(m.figure)}`];
  if (m.reference) parts.push(`reference: ${m.reference.what}, ${formatFigure(m.reference.figure)}`);
  if (m.ratio !== undefined) parts.push(`ratio ${m.ratio.toFixed(2)}`);
  if (m.also) parts.push(m.also);
  if (m.met !== undefined) parts.push(`${m.met ? 'met' : 'NOT MET'}${m.target ? ` (${m.target})` : ''}`);
  else if (m.target) parts.push(`target ${m.target}`);
  return wrap(`${parts.join('; ')}.`, '- ', '  ');
}

/** "2026-12-02 08:41 UTC" */
export const formatDate = (iso: string) => `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;

const header = [
  '<!-- Generated: bench/results.ts renders it from bench/results.json as `npm run bench` runs. Do not edit. -->',
  '',
  '# Benchmark results',
  '',
  ...wrap(
    'Written by `npm run bench`; do not edit: each benchmark script replaces its own section when it runs ' +
      '(`bench/results.ts`, from `bench/results.json`). What each goal means and how it is measured: ' +
      '[benchmarks.md](benchmarks.md).',
  ),
  '',
  ...wrap(
    'Figures measured while other work shared the machine are noisy (the load average below says how busy it ' +
      'was): compare the ratios, each taken against a reference measured in the same run, not the raw figures ' +
      'across runs or machines.',
  ),
];

/** The Markdown of `docs/bench-results.md`: the scripts of `npm run bench` in order, then any others stored. */
export function renderResults(runs: readonly ScriptRun[], scripts: readonly string[]): string {
  const order = [...scripts, ...runs.map((r) => r.script).filter((s) => !scripts.includes(s))];
  const lines = [...header];
  for (const script of order) {
    lines.push('', `## \`${script}\``, '');
    const run = runs.find((r) => r.script === script);
    if (!run) {
      lines.push(`Not run since this file was introduced; run \`node ${script}\`.`);
      continue;
    }
    const { machine } = run;
    lines.push(
      ...wrap(
        `${formatDate(run.date)}; ${machine.cpu}, ${machine.cpus} CPUs, ${machine.memoryGiB} GiB, Node ` +
          `${machine.node}; load average ${machine.load.toFixed(2)} at the end.`,
      ),
    );
    if (run.conditions) lines.push('', ...wrap(run.conditions));
    lines.push('');
    if (run.measurements.length === 0) lines.push('Nothing measured.');
    for (const m of run.measurements) lines.push(...item(m));
  }
  return `${lines.join('\n')}\n`;
}

/**
 * Stores `measurements` as `script`'s latest run (replacing its earlier one) and renders the Markdown again.
 * `script`: its path, such as `import.meta.filename`. Both files go through Prettier as the repository
 * configures it, which leaves the rendering as it is (bench-results.test.ts checks that), so that they pass
 * `prettier --check` whatever the figures' text.
 */
export async function recordResults(
  script: string,
  measurements: Measurement[],
  options: {
    conditions?: string;
    files?: { data: string; markdown: string };
    scripts?: string[];
    now?: Date;
    machine?: Machine;
  } = {},
): Promise<void> {
  const files = options.files ?? defaultFiles;
  const run: ScriptRun = {
    script: path.relative(root, path.resolve(root, script)).split(path.sep).join('/'),
    date: (options.now ?? new Date()).toISOString(),
    machine: options.machine ?? thisMachine(),
    ...(options.conditions && { conditions: options.conditions }),
    measurements,
  };
  const runs = mergeRun(readRuns(files.data), run);
  const markdown = renderResults(runs, options.scripts ?? benchScripts());
  writeFileSync(files.data, await formatted(files.data, `${JSON.stringify({ runs }, null, 2)}\n`));
  writeFileSync(files.markdown, await formatted(files.markdown, markdown));
  console.log(`\nfigures recorded in ${path.relative(root, files.markdown) || files.markdown}`);
}

export function readRuns(file: string): ScriptRun[] {
  try {
    return (JSON.parse(readFileSync(file, 'utf8')) as { runs: ScriptRun[] }).runs;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
}

async function formatted(file: string, text: string) {
  return prettier.format(text, { ...(await prettier.resolveConfig(file)), filepath: file });
}
