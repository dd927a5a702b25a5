import nx from '@nx/eslint-plugin';

// Module boundaries on two axes (HOUSE-STYLE.md): scope (which service may use what) and type
// (apps on domain/data-access/contract/util; data-access on util only; ...).
const scopes = ['gateway', 'control-plane', 'agent-server', 'tracing', 'export', 'export-worker', 'cli'];
// The web console types its requests with the services' schemas (type-only imports, checked below).
const consoleReads = ['scope:gateway', 'scope:control-plane', 'scope:tracing', 'scope:export'];

// Prisma stays inside the data-access libs (HOUSE-STYLE.md, Data): no other production file imports the generated
// client or `@prisma/client`, or calls a Prisma client (`prisma.x`, `db.prisma.x`, `$queryRaw`, `$transaction`).
// App wiring may hand `db.prisma` to a repository's constructor. Tests and tools may arrange data directly.
const dataAccess = ['libs/*/data-access/**', 'libs/shared/prisma/**'];
const testsAndTools = ['**/*.spec.ts', '**/*.integration-spec.ts', '**/*.e2e-spec.ts', '**/e2e/**', '**/*.testing.ts', '**/*.suite.ts', '**/conformance/**', 'tools/**'];
// Wiring that types the client it passes on to repositories.
const prismaWiring = ['apps/export/src/export-components.ts', 'apps/tracing/src/grpc/runs.handlers.ts'];
const prismaMessage = 'Prisma is used only inside a data-access lib: add a repository there (docs/conventions.md).';

export default [
  ...nx.configs['flat/base'],
  ...nx.configs['flat/typescript'],
  { ignores: ['**/dist', '**/node_modules', '**/generated/**', '**/.data', 'tmp/**'] },
  {
    files: ['**/*.ts', '**/*.tsx'],
    rules: {
      '@nx/enforce-module-boundaries': [
        'error',
        {
          enforceBuildableLibDependency: true,
          // No import loops between projects (the rule reports any cycle in the project graph, spec files included);
          // stated here so that it cannot be relaxed without it showing: no exceptions, no self-imports by alias.
          ignoredCircularDependencies: [],
          allowCircularSelfDependency: false,
          allow: [],
          depConstraints: [
            ...scopes.map((scope) => ({
              sourceTag: `scope:${scope}`,
              onlyDependOnLibsWithTags: [`scope:${scope}`, 'scope:shared'],
            })),
            { sourceTag: 'scope:console', onlyDependOnLibsWithTags: ['scope:console', 'scope:shared', ...consoleReads] },
            { sourceTag: 'scope:shared', onlyDependOnLibsWithTags: ['scope:shared'] },
            {
              sourceTag: 'type:app',
              onlyDependOnLibsWithTags: ['type:domain', 'type:data-access', 'type:contract', 'type:util', 'type:testing'],
            },
            {
              sourceTag: 'type:domain',
              onlyDependOnLibsWithTags: ['type:domain', 'type:data-access', 'type:contract', 'type:util'],
            },
            { sourceTag: 'type:data-access', onlyDependOnLibsWithTags: ['type:data-access', 'type:util'] },
            { sourceTag: 'type:contract', onlyDependOnLibsWithTags: ['type:util'] },
            { sourceTag: 'type:util', onlyDependOnLibsWithTags: ['type:util'] },
            {
              sourceTag: 'type:testing',
              onlyDependOnLibsWithTags: ['type:util', 'type:data-access', 'type:contract', 'type:testing'],
            },
          ],
        },
      ],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    files: ['apps/**/*.ts', 'apps/**/*.tsx', 'libs/**/*.ts'],
    ignores: [...dataAccess, ...testsAndTools, ...prismaWiring],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['@prisma/client', '@prisma/client/*', '**/generated/prisma', '**/generated/prisma/*'], message: prismaMessage },
            { regex: '^@platform/[a-z-]*data-access$', importNames: ['PrismaClient', 'Prisma'], message: prismaMessage },
          ],
        },
      ],
      'no-restricted-syntax': [
        'error',
        { selector: "MemberExpression[object.type='MemberExpression'][object.property.name='prisma']", message: prismaMessage },
        { selector: "MemberExpression[object.name='prisma']", message: prismaMessage },
        { selector: 'MemberExpression[property.name=/^\\$(queryRaw|executeRaw|transaction)/]', message: prismaMessage },
      ],
    },
  },
  {
    // The console runs in a browser: server libs only as types; the one runtime entry is a list of field names.
    files: ['apps/console/src/**/*.ts', 'apps/console/src/**/*.tsx'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^@platform/(?!contracts/run-fields$)',
              allowTypeImports: true,
              message: 'The console imports server libs for their types only (import type).',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['**/*.spec.ts', '**/*.integration-spec.ts', '**/*.e2e-spec.ts', '**/e2e/**/*.ts', '**/*.testing.ts'],
    rules: { '@typescript-eslint/no-non-null-assertion': 'off' },
  },
  {
    // End-to-end tests boot the whole platform (tools/dev/platform.ts) and may reach into any service's data to
    // arrange a scenario; the boundaries protect production code, which these files are not.
    files: ['apps/*/e2e/**/*.ts'],
    rules: { '@nx/enforce-module-boundaries': 'off' },
  },
];
