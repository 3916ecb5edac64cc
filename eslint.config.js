import { readdirSync } from 'node:fs';
import path from 'node:path';
import { defineConfig, globalIgnores } from 'eslint/config';
import importPlugin from 'eslint-plugin-import';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

/**
 * Lint: typescript-eslint's recommended rules (not type-checked, for speed) plus the import directions of
 * docs/DESIGN "Architecture" and CONVENTIONS §7, and "nothing but src/server/env.ts reads process.env"
 * (CONVENTIONS §2).
 */
const root = import.meta.dirname;

// Every feature folder gets its own zone: it may import itself, no other feature.
const foldersIn = (dir) =>
  readdirSync(path.join(root, dir), { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => d.name);
const features = foldersIn('src/client/features');
// Server modules likewise: what two modules share moves to a neutral layer (common/, db/, http/, auth/).
const serverModules = foldersIn('src/server/modules');

const boundaries = [
  {
    target: './src/common',
    from: ['./src/server', './src/client'],
    message: 'src/common is shared by both sides: it imports neither the server nor the client.',
  },
  { target: './src/server', from: './src/client', message: 'The server does not import client code.' },
  {
    target: ['./src/client/offline', './src/client/lib', './src/client/components'],
    from: ['./src/client/features', './src/client/app'],
    message: 'offline/, lib/ and components/ sit below features/ and app/: they may not import them.',
  },
  {
    target: ['./src/client/lib', './src/client/components'],
    from: './src/client/offline',
    message: 'lib/ and components/ sit below the offline engine: what both need lives in lib/ (device-mark.ts, say).',
  },
  {
    // The tests' kits (src/client/test: a browser's parts, a stand-in server, fake IndexedDB) serve the tests
    // alone: product code that imported one would ship it.
    target: ['./src/client/*.{ts,tsx}', './src/client/!(test)/**/!(*.test).{ts,tsx}'],
    from: './src/client/test',
    message: 'src/client/test holds the tests’ kits: only tests import them.',
  },
  ...serverModules.map((module) => ({
    target: `./src/server/modules/${module}`,
    from: './src/server/modules',
    except: [`./${module}`],
    message:
      'Server modules do not import each other: move what they share to a neutral layer, or compose them in app.ts.',
  })),
  {
    target: './src/server/**/*.routes.ts',
    from: './src/server/**/*.repository.ts',
    message: 'Routes validate, call a usecase and respond: the usecase reaches the repository (CONVENTIONS §4).',
  },
  ...features.map((feature) => ({
    target: `./src/client/features/${feature}`,
    from: './src/client/features',
    except: [`./${feature}`],
    message: 'Features do not import each other: move what they share to lib/ or components/, or compose them in app/.',
  })),
];

const processEnvMessage = 'Read configuration through src/server/env.ts (CONVENTIONS §2).';
const processEnvImports = ['process', 'node:process'].map((name) => ({
  name,
  importNames: ['env'],
  message: processEnvMessage,
}));

const storageMessage =
  'Usecases see storage through their repository’s interface (*.storage.ts, deps.repos), never an engine (docs/decisions/0026).';

const browserOnlyMessage = 'The client runs in the browser: no Node API outside its tests.';
const serverCode = {
  regex: '^(\\.\\./)+(src/)?server(/|$)',
  allowTypeImports: true,
  message: 'The client does not import server code; `import type` of the API types is the one exception.',
};
const clientImports = (patterns = [], server = serverCode) => [
  'error',
  {
    paths: [
      ...processEnvImports,
      {
        name: 'sonner',
        importNames: ['toast'],
        message: 'Use toast from src/client/lib/toast.ts: the same alert twice is then one toast.',
      },
    ],
    patterns: [server, ...patterns],
  },
];

export default defineConfig(
  globalIgnores(['dist/', 'node_modules/', 'test-results/', 'playwright-report/', 'data/']),
  tseslint.configs.recommended,
  {
    files: ['**/*.{ts,tsx,js}'],
    plugins: { import: importPlugin },
    settings: { 'import/resolver': { node: { extensions: ['.ts', '.tsx', '.js'] } } },
    rules: {
      'import/no-restricted-paths': ['error', { basePath: root, zones: boundaries }],
      'no-restricted-properties': ['error', { object: 'process', property: 'env', message: processEnvMessage }],
      '@typescript-eslint/no-restricted-imports': ['error', { paths: processEnvImports }],
    },
  },
  {
    files: ['src/client/**/*.{ts,tsx}'],
    ...reactHooks.configs.flat.recommended,
    rules: { ...reactHooks.configs.flat.recommended.rules, 'react-hooks/exhaustive-deps': 'error' },
  },
  {
    // The one type-aware rule: a promise nobody awaits loses its error and its order. It needs the types,
    // so only for the code tsconfig.json covers.
    files: ['src/**/*.{ts,tsx}', 'tests/**/*.ts'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: root } },
    rules: { '@typescript-eslint/no-floating-promises': 'error' },
  },
  {
    // The client may use the API's types (`import type`, erased from the bundle), never server code.
    // import/no-restricted-paths cannot tell a type import from a value import, so this boundary uses
    // typescript-eslint's rule, which can; it matches relative imports that climb into src/server.
    files: ['src/client/**'],
    rules: { '@typescript-eslint/no-restricted-imports': clientImports() },
  },
  {
    // The API types bring Node's types into the client's type check (tsconfig.client.json), so it is this
    // rule that keeps Node out of what ships; the client's tests run on Node.
    files: ['src/client/**'],
    ignores: ['src/client/**/*.test.ts', 'src/client/test/**'],
    rules: {
      '@typescript-eslint/no-restricted-imports': clientImports([{ regex: '^node:', message: browserOnlyMessage }]),
      'no-restricted-globals': [
        'error',
        ...['Buffer', 'process', 'global', 'require', '__dirname', '__filename'].map((name) => ({
          name,
          message: browserOnlyMessage,
        })),
      ],
    },
  },
  {
    // The offline engine's chaos test runs the client against the real server process, which the server's test
    // support starts, kills and reads (src/server/test/chaos-server.ts); the live events' test behind the Hosting
    // stand-in starts the real server too: the client files that may import it.
    files: ['src/client/app/offline-chaos.test.ts', 'src/client/app/live-events.behind-hosting.test.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': clientImports([], {
        ...serverCode,
        regex: '^(\\.\\./)+(src/)?server(/(?!test/)|$)',
      }),
    },
  },
  {
    files: ['src/client/lib/toast.ts'],
    rules: { '@typescript-eslint/no-restricted-imports': 'off' },
  },
  {
    // Migrations take `Kysely<any>` on purpose: they are frozen and must not depend on today's table types
    // (CONVENTIONS §6).
    files: ['src/server/db/migrations/**'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    // Storage stays behind repositories (docs/decisions/0026): a module's rules see its repository's interface
    // (`*.storage.ts`), never an engine: no Kysely, pg or Firestore import, type or value, and no table type,
    // SQL repository or engine folder. Only `*.repository.ts` (SQL) and `*.firestore.ts` implement storage.
    files: ['src/server/modules/**/*.{ts,tsx}'],
    ignores: [
      'src/server/modules/**/*.repository.ts',
      'src/server/modules/**/*.firestore.ts',
      'src/server/modules/**/*.table.ts',
      'src/server/modules/**/*.test.ts',
    ],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: processEnvImports,
          patterns: [
            {
              group: ['kysely', 'kysely/*', 'pg', 'firebase-admin', 'firebase-admin/*', '@google-cloud/firestore'],
              message: storageMessage,
            },
            { regex: '\\.(repository|table|firestore)(\\.ts)?$', message: storageMessage },
            { regex: '^(\\.\\./)+(db|storage/sql-storage)(/|$|\\.ts)', message: storageMessage },
          ],
        },
      ],
    },
  },
  {
    // Outside the app, tools and tests set up their own environment.
    files: ['src/server/env.ts', 'tests/**', 'bench/**', 'scripts/**', '*.config.ts', '*.config.js'],
    rules: {
      'no-restricted-properties': 'off',
      '@typescript-eslint/no-restricted-imports': 'off',
    },
  },
);
