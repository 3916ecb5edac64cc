import { ESLint } from 'eslint';
import { beforeAll, describe, expect, test } from 'vitest';

/**
 * Each boundary rule in eslint.config.js fires on a deliberate violation and stays quiet on the allowed
 * import next to it. The files are imagined (lintText with a path), the imports point at real files, since
 * the rule only judges imports it can resolve.
 */
let eslint: ESLint;

beforeAll(() => {
  // The type-aware rule needs files that exist; these do not, and the boundaries need no types.
  eslint = new ESLint({
    cwd: import.meta.dirname,
    overrideConfig: {
      languageOptions: { parserOptions: { projectService: false } },
      rules: { '@typescript-eslint/no-floating-promises': 'off' },
    },
  });
});

async function boundaryErrors(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return (result?.messages ?? []).filter((m) => m.ruleId !== null && /restricted/.test(m.ruleId)).map((m) => m.message);
}

describe('import boundaries', () => {
  test('a server module cannot import another module, only its own files and the shared layers', async () => {
    const file = 'src/server/modules/bookings/imagined.ts';
    expect(
      await boundaryErrors(
        file,
        "import type { CatalogueRepository } from '../catalogue/catalogue.storage.ts';\nlet r: CatalogueRepository;\nr;\n",
      ),
    ).toEqual([expect.stringMatching(/Server modules do not import each other/)]);
    expect(
      await boundaryErrors(
        file,
        "import { createBookingNotFoundError } from './bookings.errors.ts';\nimport { createError } from '../../http/errors.ts';\ncreateBookingNotFoundError; createError;\n",
      ),
    ).toEqual([]);
  });

  test('lib/ sits below the offline engine: the engine imports lib/, never the other way round', async () => {
    expect(
      await boundaryErrors('src/client/lib/imagined.ts', "import { engine } from '../offline/engine.ts';\nengine;\n"),
    ).toEqual([expect.stringMatching(/sit below the offline engine/)]);
    expect(
      await boundaryErrors('src/client/offline/imagined.ts', "import { apiFetch } from '../lib/api.ts';\napiFetch;\n"),
    ).toEqual([]);
  });

  test('routes cannot reach a repository, their usecases can', async () => {
    expect(
      await boundaryErrors(
        'src/server/modules/catalogue/imagined.routes.ts',
        "import { createCatalogueRepository } from './catalogue.repository.ts';\ncreateCatalogueRepository;\n",
      ),
    ).toContainEqual(expect.stringMatching(/Routes validate, call a usecase and respond/));
    expect(
      await boundaryErrors(
        'src/server/modules/catalogue/imagined.repository.ts',
        "import type { CatalogueRepository } from './catalogue.storage.ts';\nlet r: CatalogueRepository;\nr;\n",
      ),
    ).toEqual([]);
  });

  test('a module’s rules see storage through its repository’s interface, never Kysely, Firestore or a table', async () => {
    const file = 'src/server/modules/catalogue/imagined.usecases.ts';
    const refused = /Usecases see storage through their repository’s interface/;
    for (const code of [
      "import { sql } from 'kysely';\nsql;\n",
      "import type { Firestore } from 'firebase-admin/firestore';\nlet f: Firestore;\nf;\n",
      "import type { ModulesTable } from './catalogue.table.ts';\nlet t: ModulesTable;\nt;\n",
      "import { createCatalogueRepository } from './catalogue.repository.ts';\ncreateCatalogueRepository;\n",
      "import type { Db } from '../../db/create-db.ts';\nlet d: Db;\nd;\n",
    ])
      expect(await boundaryErrors(file, code), code).toEqual([expect.stringMatching(refused)]);
    expect(
      await boundaryErrors(
        file,
        "import type { CatalogueRepository } from './catalogue.storage.ts';\nimport type { Storage } from '../../storage/storage.ts';\nlet r: CatalogueRepository; let s: Storage;\nr; s;\n",
      ),
    ).toEqual([]);
  });

  test('src/common imports neither the server nor the client', async () => {
    expect(
      await boundaryErrors(
        'src/common/imagined.ts',
        "import { createError } from '../server/http/errors.ts';\ncreateError;\n",
      ),
    ).toEqual([expect.stringMatching(/src\/common is shared by both sides/)]);
    expect(
      await boundaryErrors(
        'src/common/imagined.ts',
        "import { toastError } from '../client/lib/toast.ts';\ntoastError;\n",
      ),
    ).toEqual([expect.stringMatching(/src\/common is shared by both sides/)]);
  });

  test('the offline engine and lib/ know no feature', async () => {
    const featureImport = "import { bookingsSync } from '../features/bookings/bookings.sync.ts';\nbookingsSync;\n";
    for (const file of ['src/client/offline/imagined.ts', 'src/client/lib/imagined.ts']) {
      expect(await boundaryErrors(file, featureImport), file).toEqual([
        expect.stringMatching(/offline\/, lib\/ and components\/ sit below/),
      ]);
    }
    expect(await boundaryErrors('src/client/app/imagined.ts', featureImport)).toEqual([]);
  });

  test('the tests’ kits are for tests: product code cannot import them, tests can', async () => {
    const kitImport = "import { openPage } from '../test/engine-test-kit.ts';\nopenPage;\n";
    for (const file of ['src/client/offline/imagined.ts', 'src/client/app/imagined.tsx'])
      expect(await boundaryErrors(file, kitImport), file).toEqual([expect.stringMatching(/only tests import them/)]);
    expect(
      await boundaryErrors(
        'src/client/imagined.ts',
        "import { openPage } from './test/engine-test-kit.ts';\nopenPage;\n",
      ),
    ).toEqual([expect.stringMatching(/only tests import them/)]);
    expect(await boundaryErrors('src/client/offline/imagined.test.ts', kitImport)).toEqual([]);
    // A kit runs on Node, as the tests do.
    expect(
      await boundaryErrors('src/client/test/imagined.ts', "import { readFileSync } from 'node:fs';\nreadFileSync;\n"),
    ).toEqual([]);
  });

  test('client code uses no Node API, which its type check cannot see (the API types bring Node in)', async () => {
    expect(await boundaryErrors('src/client/lib/imagined.ts', "export const bytes = Buffer.from('x');\n")).toEqual([
      expect.stringMatching(/runs in the browser/),
    ]);
    expect(
      await boundaryErrors('src/client/lib/imagined.ts', "import { readFileSync } from 'node:fs';\nreadFileSync;\n"),
    ).toEqual([expect.stringMatching(/runs in the browser/)]);
  });
});
