const preset = require('../../../jest.preset.js');

module.exports = {
  ...preset,
  displayName: 'gateway-data-access',
  rootDir: __dirname,
  testMatch: ['<rootDir>/src/**/*.spec.ts'],
};
