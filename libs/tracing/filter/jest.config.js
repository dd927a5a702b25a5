const preset = require('../../../jest.preset.js');

module.exports = {
  ...preset,
  displayName: 'tracing-filter',
  rootDir: __dirname,
  testMatch: ['<rootDir>/src/**/*.spec.ts'],
};
