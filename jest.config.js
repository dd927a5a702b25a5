// Every test in the workspace, in three projects: unit (`*.spec.ts`), integration against real
// Postgres / NATS / S3 (`*.integration-spec.ts`) and end-to-end through the gateway (`*.e2e-spec.ts`).
// `npm test` runs them all; `npx jest --selectProjects unit` runs one group.
const preset = require('./jest.preset.js');

const longTimeout = '<rootDir>/tools/jest/long-timeout.setup.js';
const roots = ['<rootDir>/apps', '<rootDir>/libs', '<rootDir>/tools', '<rootDir>/examples'];
const group = (displayName, pattern, extra = {}) => ({
  ...preset,
  displayName,
  roots,
  testMatch: [`**/*.${pattern}.ts`],
  ...extra,
});

module.exports = {
  projects: [
    group('unit', 'spec'),
    group('integration', 'integration-spec', { setupFilesAfterEnv: [longTimeout] }),
    group('e2e', 'e2e-spec', { setupFilesAfterEnv: [longTimeout] }),
  ],
};
