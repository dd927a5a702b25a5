const preset = require('../../../jest.preset.js');

module.exports = {
  ...preset,
  displayName: 'shared-langgraph-packages',
  rootDir: __dirname,
  testMatch: ['<rootDir>/src/**/*.spec.ts'],
};
