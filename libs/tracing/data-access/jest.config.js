const preset = require('../../../jest.preset.js');

module.exports = {
  ...preset,
  displayName: 'tracing-data-access',
  rootDir: __dirname,
  testMatch: ['<rootDir>/src/**/*.spec.ts'],
};
