import { readFileSync } from 'node:fs';
import { expect, test } from 'vitest';

/**
 * `firestore.indexes.json` is every fragment of docs/firestore-layout.md put together, in the document's order:
 * each part of the layout names the indexes its queries need beside the queries, and this keeps the deployed
 * file from drifting away from them.
 */

interface IndexFile {
  indexes: { collectionGroup: string }[];
  fieldOverrides: { collectionGroup: string; fieldPath: string }[];
}

const read = (file: string) => readFileSync(new URL(`../../../../${file}`, import.meta.url), 'utf8');

/** The first JSON block after each "The fragment for `firestore.indexes.json`". */
function fragments(layout: string): IndexFile[] {
  return layout
    .split('The fragment for `firestore.indexes.json`')
    .slice(1)
    .map((part) => JSON.parse(/```json\n([\s\S]*?)\n```/.exec(part)![1]!) as IndexFile);
}

test('firestore.indexes.json is the fragments of docs/firestore-layout.md put together', () => {
  const parts = fragments(read('docs/firestore-layout.md'));
  expect(parts.length).toBeGreaterThanOrEqual(5);
  const whole: IndexFile = {
    indexes: parts.flatMap((part) => part.indexes),
    fieldOverrides: parts.flatMap((part) => part.fieldOverrides ?? []),
  };
  expect(JSON.parse(read('firestore.indexes.json'))).toEqual(whole);
});

test('no field is overridden twice, and no composite index is listed twice', () => {
  const { indexes, fieldOverrides } = JSON.parse(read('firestore.indexes.json')) as IndexFile;
  const fields = fieldOverrides.map((o) => `${o.collectionGroup}.${o.fieldPath}`);
  expect(fields.filter((f, i) => fields.indexOf(f) !== i)).toEqual([]);
  const composites = indexes.map((index) => JSON.stringify(index));
  expect(composites.filter((c, i) => composites.indexOf(c) !== i)).toEqual([]);
});
