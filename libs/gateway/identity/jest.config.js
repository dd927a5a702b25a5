const preset = require('../../../jest.preset.js');

module.exports = {
  ...preset,
  displayName: 'gateway-identity',
  rootDir: __dirname,
  testMatch: ['<rootDir>/src/**/*.spec.ts'],
};
