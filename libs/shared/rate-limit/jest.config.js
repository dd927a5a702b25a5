const preset = require('../../../jest.preset.js');

module.exports = {
  ...preset,
  displayName: 'shared-rate-limit',
  rootDir: __dirname,
  testMatch: ['<rootDir>/src/**/*.spec.ts'],
};
