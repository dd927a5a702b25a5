const preset = require('../../../jest.preset.js');

module.exports = {
  ...preset,
  displayName: 'export-dispatch',
  rootDir: __dirname,
  testMatch: ['<rootDir>/src/**/*.spec.ts'],
};
