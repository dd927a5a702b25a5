const preset = require('../../../jest.preset.js');

module.exports = {
  ...preset,
  displayName: 'agent-server-thread-protocol',
  rootDir: __dirname,
  testMatch: ['<rootDir>/src/**/*.spec.ts'],
};
