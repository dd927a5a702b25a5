const preset = require('../../../jest.preset.js');

module.exports = {
  ...preset,
  displayName: 'export-s3',
  rootDir: __dirname,
  testMatch: ['<rootDir>/src/**/*.spec.ts'],
};
