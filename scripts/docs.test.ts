import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { expect, test } from 'vitest';

/** The repository's own Markdown (git's list: no dependency's), as [path, text]. */
const markdown = execFileSync('git', ['ls-files', '-z', '--', '*.md'], { encoding: 'utf8' })
  .split('\0')
  .filter(Boolean)
  .map((file) => [file, readFileSync(file, 'utf8')] as const);

/** Lines outside fenced code blocks (a command or a JSON shape may be as wide as it is). */
function proseLines(text: string): { line: number; text: string }[] {
  let fenced = false;
  return text.split('\n').flatMap((line, index) => {
    if (line.trimStart().startsWith('```')) {
      fenced = !fenced;
      return [];
    }
    return fenced ? [] : [{ line: index + 1, text: line }];
  });
}

test('no Markdown line is wider than 160 characters outside code blocks (a terminal can read it)', () => {
  expect(markdown.length).toBeGreaterThan(10);
  const wide = markdown.flatMap(([file, text]) =>
    proseLines(text)
      .filter(({ text: line }) => [...line].length > 160)
      .map(({ line, text: content }) => `${file}:${line} (${[...content].length} characters)`),
  );
  expect(wide).toEqual([]);
});

test('the README fits one screen: what it is, how to start and test, and links', () => {
  const readme = readFileSync('README.md', 'utf8');
  expect(readme.split('\n').length).toBeLessThanOrEqual(50);
  expect(readme.split(/\s+/).filter(Boolean).length).toBeLessThanOrEqual(300);
  // Every page it links to is there.
  for (const [, target] of readme.matchAll(/\]\(((?:docs\/|\.env)[^)#]*)\)/g))
    expect(existsSync(target!), target).toBe(true);
});

test('each decision record opens with its date and status, and stays short (a mechanism gets a docs/ page)', () => {
  const records = markdown.filter(([file]) => /^docs\/decisions\/\d{4}-.*\.md$/.test(file));
  expect(records.length).toBeGreaterThan(40);
  for (const [file, text] of records) {
    expect(text, file).toMatch(
      /^# \d+\. .+\n\nDate: \d{4}-\d{2}-\d{2}\nStatus: (accepted|superseded by \d{4}|amended by \d{4}(,? (and )?\d{4})*)\n/,
    );
    expect(text.split(/\s+/).filter(Boolean).length, file).toBeLessThanOrEqual(650);
  }
});
