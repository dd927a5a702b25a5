const preset = require('../../../jest.preset.js');

module.exports = {
  ...preset,
  displayName: 'export-exports',
  rootDir: __dirname,
  testMatch: ['<rootDir>/src/**/*.spec.ts'],
};
