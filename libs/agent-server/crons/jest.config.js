const preset = require('../../../jest.preset.js');

module.exports = {
  ...preset,
  displayName: 'agent-server-crons',
  rootDir: __dirname,
  testMatch: ['<rootDir>/src/**/*.spec.ts'],
};
