const preset = require('../../../jest.preset.js');

module.exports = {
  ...preset,
  displayName: 'agent-server-runs',
  rootDir: __dirname,
  testMatch: ['<rootDir>/src/**/*.spec.ts'],
};
