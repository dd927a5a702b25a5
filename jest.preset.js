// Shared Jest settings: SWC transpiles TypeScript (type checking is the `typecheck`/`lint` targets' job),
// and `@platform/*` imports resolve through the paths of tsconfig.base.json.
const path = require('node:path');
const { compilerOptions } = require('./tsconfig.base.json');

const moduleNameMapper = {};
for (const [alias, [target]] of Object.entries(compilerOptions.paths)) {
  moduleNameMapper[`^${alias.replace('/*', '/(.*)')}$`] = path.join(__dirname, target.replace('/*', '/$1'));
}

// kubernetes-models (the Kubernetes OpenAPI schemas, compiled) publishes ES modules under `import` conditions only,
// which jest's CommonJS resolver does not read: map its entry points to their files (SWC transforms them).
const nodeModules = path.join(__dirname, 'node_modules');
Object.assign(moduleNameMapper, {
  '^kubernetes-models/(.*)$': `${nodeModules}/kubernetes-models/$1`,
  '^@kubernetes-models/(apimachinery|keda)/(.*)$': `${nodeModules}/@kubernetes-models/$1/$2`,
  '^@kubernetes-models/(base|validate)$': `${nodeModules}/@kubernetes-models/$1/dist/index.js`,
  '^@kubernetes-models/validate/runtime/(.*)$': `${nodeModules}/@kubernetes-models/validate/dist/runtime/$1`,
});

module.exports = {
  testEnvironment: 'node',
  transform: {
    '/node_modules/@electric-sql/pglite/dist/.+\\.c?js$': path.join(__dirname, 'tools/jest/builtin-dynamic-import.transform.js'),
    '^.+\\.[tj]s$': [
      '@swc/jest',
      { jsc: { parser: { syntax: 'typescript', decorators: true }, target: 'es2022' }, module: { type: 'commonjs' } },
    ],
  },
  // node_modules stay untransformed except PGlite (see tools/jest/builtin-dynamic-import.transform.js), the
  // ESM-only Kubernetes client with its ESM dependencies and the Kubernetes schema models, which SWC turns into
  // CommonJS for the test runtime.
  transformIgnorePatterns: ['/node_modules/(?!(@electric-sql/pglite|@kubernetes/client-node|openid-client|oauth4webapi|jose|kubernetes-models|@kubernetes-models|is-cidr|cidr-regex)/)'],
  moduleFileExtensions: ['ts', 'js', 'cjs', 'json'],
  moduleNameMapper,
  // Specs that start servers or open a database get a timeout for a loaded machine (see the file); the
  // integration and e2e groups of jest.config.js replace this with tools/jest/long-timeout.setup.js.
  setupFilesAfterEnv: [path.join(__dirname, 'tools/jest/heavy-unit.setup.js')],
  clearMocks: true,
};
