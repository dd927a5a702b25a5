const preset = require('../../../jest.preset.js');

module.exports = {
  ...preset,
  displayName: 'control-plane-secrets',
  rootDir: __dirname,
  testMatch: ['<rootDir>/src/**/*.spec.ts'],
};
