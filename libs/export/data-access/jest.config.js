const preset = require('../../../jest.preset.js');

module.exports = {
  ...preset,
  displayName: 'export-data-access',
  rootDir: __dirname,
  testMatch: ['<rootDir>/src/**/*.spec.ts'],
};
