const preset = require('../../../jest.preset.js');

module.exports = {
  ...preset,
  displayName: 'agent-server-store',
  rootDir: __dirname,
  testMatch: ['<rootDir>/src/**/*.spec.ts'],
};
