const preset = require('../../../jest.preset.js');

module.exports = {
  ...preset,
  displayName: 'control-plane-oauth',
  rootDir: __dirname,
  testMatch: ['<rootDir>/src/**/*.spec.ts'],
};
