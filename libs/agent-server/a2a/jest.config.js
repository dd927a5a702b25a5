const preset = require('../../../jest.preset.js');

module.exports = {
  ...preset,
  displayName: 'agent-server-a2a',
  rootDir: __dirname,
  testMatch: ['<rootDir>/src/**/*.spec.ts'],
};
