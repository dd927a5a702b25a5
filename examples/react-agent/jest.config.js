// Runs this example's tests inside the platform monorepo (the deployable project itself needs no test runner).
const preset = require('../../jest.preset.js');

module.exports = {
  ...preset,
  displayName: 'example-react-agent',
  rootDir: __dirname,
  testMatch: ['<rootDir>/src/**/*.spec.ts'],
};
