#!/usr/bin/env node
// Scaffolds a project the way every project here is shaped:
//   node tools/scripts/new-project.mjs lib <dir under libs/> <import name> <scope> <type>
//   node tools/scripts/new-project.mjs app <name> <scope>
// Writes project.json, tsconfig.json, jest.config.js and src/index.ts (libs) or src/main.ts (apps),
// and adds the lib's `@platform/<import name>` path to tsconfig.base.json.
import fs from 'node:fs';
import path from 'node:path';

const [kind, where, importName, scopeArg, typeArg] = process.argv.slice(2);
const root = path.resolve(import.meta.dirname, '../..');
if (!['lib', 'app'].includes(kind) || !where) {
  console.error('usage: new-project.mjs lib <dir> <import-name> <scope> <type> | app <name> <scope>');
  process.exit(2);
}
const projectRoot = kind === 'lib' ? `libs/${where}` : `apps/${where}`;
const name = kind === 'lib' ? where.replaceAll('/', '-') : where;
const scope = kind === 'lib' ? scopeArg : (importName ?? where);
const type = kind === 'lib' ? typeArg : 'app';
const dir = path.join(root, projectRoot);
const up = path.relative(dir, root);
const write = (file, content) => {
  const target = path.join(dir, file);
  if (fs.existsSync(target)) return;
  fs.mkdirSync(path.dirname(target), { recursive: true });
  fs.writeFileSync(target, content);
};

const targets = {
  lint: { executor: '@nx/eslint:lint' },
  test: { executor: '@nx/jest:jest', options: { jestConfig: `${projectRoot}/jest.config.js`, passWithNoTests: true } },
  typecheck: { executor: 'nx:run-commands', options: { command: `tsc -p ${projectRoot}/tsconfig.json --noEmit` } },
};
if (kind === 'app') {
  targets.build = {
    executor: '@nx/esbuild:esbuild',
    outputs: ['{options.outputPath}'],
    options: {
      main: `${projectRoot}/src/main.ts`,
      outputPath: `dist/${projectRoot}`,
      tsConfig: `${projectRoot}/tsconfig.json`,
      platform: 'node',
      format: ['cjs'],
      bundle: true,
      thirdParty: false,
      generatePackageJson: true,
      sourcemap: true,
    },
  };
  targets.serve = { executor: 'nx:run-commands', options: { command: `tsx ${projectRoot}/src/main.ts` } };
}
write(
  'project.json',
  JSON.stringify(
    {
      name,
      $schema: `${up}/node_modules/nx/schemas/project-schema.json`,
      sourceRoot: `${projectRoot}/src`,
      projectType: kind === 'lib' ? 'library' : 'application',
      tags: [`scope:${scope}`, `type:${type}`],
      targets,
    },
    null,
    2,
  ) + '\n',
);
write(
  'tsconfig.json',
  JSON.stringify(
    { extends: `${up}/tsconfig.base.json`, compilerOptions: { types: ['node', 'jest'] }, include: ['src/**/*.ts', 'e2e/**/*.ts'] },
    null,
    2,
  ) + '\n',
);
write(
  'jest.config.js',
  `const preset = require('${up}/jest.preset.js');\n\nmodule.exports = {\n  ...preset,\n  displayName: '${name}',\n  rootDir: __dirname,\n  testMatch: ['<rootDir>/src/**/*.spec.ts'],\n};\n`,
);
if (kind === 'lib') {
  write('src/index.ts', '');
  const tsconfigPath = path.join(root, 'tsconfig.base.json');
  const tsconfig = JSON.parse(fs.readFileSync(tsconfigPath, 'utf8'));
  tsconfig.compilerOptions.paths[`@platform/${importName}`] = [`${projectRoot}/src/index.ts`];
  tsconfig.compilerOptions.paths = Object.fromEntries(Object.entries(tsconfig.compilerOptions.paths).sort());
  fs.writeFileSync(tsconfigPath, JSON.stringify(tsconfig, null, 2) + '\n');
} else {
  write('src/main.ts', '');
}
console.log(`created ${projectRoot} (${name}) tags scope:${scope} type:${type}`);
