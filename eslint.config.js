// One lint config for the whole workspace: strict TypeScript rules everywhere, React hooks rules on the web,
// file naming, and the layer rules of docs/decisions.md ("Layer rules kept by lint").
import fs from 'node:fs';
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';
import reactHooks from 'eslint-plugin-react-hooks';
import { importX } from 'eslint-plugin-import-x';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import checkFile from 'eslint-plugin-check-file';
import lumina from './scripts/lint/no-module-cycle.mjs';

const server = 'apps/server/src';
const web = 'apps/web/src';
const webFeatures = fs.readdirSync(`${web}/features`, { withFileTypes: true }).filter((e) => e.isDirectory());

/** Which files may import which: import-x/no-restricted-paths zones (globs from the repo root). */
const layerZones = [
  {
    target: `${server}/**/*.routes.ts`,
    from: `${server}/**/*.repository.ts`,
    message: 'Routes reach the database through a service, never a repository.',
  },
  {
    target: `${server}/adapters/**`,
    from: `${server}/modules/**`,
    message: 'Adapters talk to the outside world only and never import modules.',
  },
  {
    target: `${server}/adapters/**`,
    from: `${server}/errors.ts`,
    message: 'Adapters never throw HTTP errors (errors.ts): they throw their own, and the caller maps them.',
  },
  ...webFeatures.map(({ name }) => ({
    target: `${web}/features/${name}/**`,
    from: webFeatures
      .filter((other) => other.name !== name)
      .map((other) => `${web}/features/${other.name}/**`),
    message:
      'A feature never imports another feature: move what both need into components/, lib/ or stores/.',
  })),
  {
    target: ['components', 'lib', 'stores', 'config', 'testing'].map((layer) => `${web}/${layer}/**`),
    from: `${web}/features/**`,
    message: 'Shared web layers never import features; app/ composes them.',
  },
  {
    target: ['components', 'lib', 'stores', 'config'].map((layer) => `${web}/${layer}/**`),
    from: `${web}/app/**`,
    message: 'Shared web layers never import app/.',
  },
  {
    target: 'packages/contracts/**',
    from: ['apps/**'],
    message: 'The contracts are shared by server and web and import neither.',
  },
  { target: 'apps/web/**', from: 'apps/server/**', message: 'The web talks to the server over HTTP only.' },
  { target: 'apps/server/**', from: 'apps/web/**', message: 'The server never imports the web app.' },
];

/** Only repositories (and db/ itself, migrations and tests) build queries; everything else calls them. */
const queryBuilders = [
  'error',
  {
    patterns: [
      {
        group: ['drizzle-orm', 'drizzle-orm/*'],
        allowTypeImports: true,
        message: 'Only repositories (*.repository.ts) build queries: move this query into one.',
      },
      {
        group: ['**/db/schema', '**/db/schema/*'],
        allowTypeImports: true,
        message:
          'Only repositories (*.repository.ts) use the tables: move this query into one (row types are fine).',
      },
    ],
  },
];

export default tseslint.config(
  {
    ignores: [
      '.tmp/**',
      '**/node_modules/**',
      '**/dist/**',
      '**/data/**',
      'test-results/**',
      'playwright-report/**',
      '**/migrations/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  {
    files: ['apps/web/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: reactHooks.configs.recommended.rules,
  },

  // File and folder names: kebab-case, with dotted role suffixes (generation.service.ts, tool-panel.tsx).
  {
    files: ['**/*.{ts,tsx,js,mjs}'],
    plugins: { 'check-file': checkFile },
    rules: {
      'check-file/filename-naming-convention': [
        'error',
        { '**/*.{ts,tsx,js,mjs}': 'KEBAB_CASE' },
        { ignoreMiddleExtensions: true },
      ],
      'check-file/folder-naming-convention': [
        'error',
        { '{apps,packages,e2e,bench,scripts}/**/': 'KEBAB_CASE' },
      ],
    },
  },

  // Layer rules.
  {
    files: ['**/*.{ts,tsx}'],
    plugins: { 'import-x': importX, lumina },
    settings: {
      // import-x parses imported files to follow cycles; without these it cannot read TypeScript.
      'import-x/extensions': importX.flatConfigs.typescript.settings['import-x/extensions'],
      'import-x/parsers': importX.flatConfigs.typescript.settings['import-x/parsers'],
      'import-x/resolver-next': [
        createTypeScriptImportResolver({
          project: [
            'packages/contracts/tsconfig.json',
            'apps/server/tsconfig.json',
            'apps/web/tsconfig.json',
          ],
          noWarnOnMultipleProjects: true,
        }),
      ],
    },
    rules: {
      'import-x/no-restricted-paths': ['error', { zones: layerZones }],
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
      'lumina/no-module-cycle': 'error',
    },
  },
  {
    // Tables that point at each other (a job of a purchase, a purchase's trained model, that model's
    // training job) import each other: drizzle reads references lazily (`() => table.id`, typed
    // AnyPgColumn), so the cycle is settled at first use, never at import. Cycles elsewhere stay errors.
    files: [`${server}/db/schema/*.ts`],
    rules: { 'import-x/no-cycle': 'off' },
  },
  {
    files: [`${server}/**/*.ts`],
    ignores: [
      `${server}/**/*.repository.ts`,
      `${server}/db/**`,
      `${server}/**/*.test.ts`,
      `${server}/**/*.test-helpers.ts`,
    ],
    rules: { '@typescript-eslint/no-restricted-imports': queryBuilders },
  },
);
