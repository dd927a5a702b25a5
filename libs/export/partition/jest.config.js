const preset = require('../../../jest.preset.js');

module.exports = {
  ...preset,
  displayName: 'export-partition',
  rootDir: __dirname,
  testMatch: ['<rootDir>/src/**/*.spec.ts'],
};
