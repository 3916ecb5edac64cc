import { execFile } from 'node:child_process';
import { copyFile, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, test } from 'vitest';
import { deadline } from '../test/deadline.ts';

/**
 * The old site's export is secret (`users.json`: every password hash; `hash.txt`: the project's signer key).
 * docs/moving-in-from-firebase.md says to keep it outside the checkout; if it lands there anyway, git does not
 * track it, `gcloud run deploy --source .` does not upload it and the image does not hold it.
 */
const run = promisify(execFile);

/** Where an owner might leave the files, following the steps or not. */
const secrets = [
  'users.json',
  'hash.txt',
  'firebase-export/users.json',
  'firebase-export/hash.txt',
  'tutorbook-move-in/users.json',
  'old-site.hash-config.json',
  'src/server/import/users.json',
  'scripts/hash.txt',
];

describe('the export files are ignored', () => {
  test('by git', async () => {
    const { stdout } = await run('git', ['check-ignore', ...secrets]);
    expect(stdout.trim().split('\n').sort()).toEqual([...secrets].sort());
    // And nothing the app needs is.
    await expect(run('git', ['check-ignore', 'src/server/cli.ts', 'package.json'])).rejects.toMatchObject({ code: 1 });
  });

  test(
    'by `gcloud run deploy --source .` (.gcloudignore, read by gcloud itself)',
    async () => {
      const dir = await mkdtemp(path.join(os.tmpdir(), 'tutorbook-gcloudignore-'));
      try {
        for (const file of ['.gcloudignore', '.gitignore']) await copyFile(file, path.join(dir, file));
        for (const file of [...secrets, 'src/server/main.ts', 'package.json']) {
          await mkdir(path.dirname(path.join(dir, file)), { recursive: true });
          await writeFile(path.join(dir, file), '{}');
        }
        // The files gcloud would upload, computed as `gcloud run deploy` computes them, without reaching Google.
        const { stdout } = await run('gcloud', ['meta', 'list-files-for-upload', dir], { timeout: deadline(60_000) });
        expect(stdout.trim().split('\n').sort()).toEqual(['.gitignore', 'package.json', 'src/server/main.ts']);
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    },
    deadline(90_000),
  );

  test('by the image’s build (.dockerignore names them at any depth)', async () => {
    // No Docker daemon here to build a context with: the patterns are checked as written. A .dockerignore
    // pattern matches from the context's root, so each needs `**/` to match in a folder too.
    const lines = (await readFile('.dockerignore', 'utf8')).split('\n').map((line) => line.trim());
    for (const pattern of [
      '**/users.json',
      '**/hash.txt',
      '**/*.hash-config*',
      '**/firebase-export',
      '**/tutorbook-move-in',
    ])
      expect(lines).toContain(pattern);
  });
});
