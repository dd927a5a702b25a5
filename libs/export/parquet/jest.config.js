const preset = require('../../../jest.preset.js');

module.exports = {
  ...preset,
  displayName: 'export-parquet',
  rootDir: __dirname,
  testMatch: ['<rootDir>/src/**/*.spec.ts'],
};
