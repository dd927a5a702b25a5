const preset = require('../../../jest.preset.js');

module.exports = {
  ...preset,
  displayName: 'gateway-routing',
  rootDir: __dirname,
  testMatch: ['<rootDir>/src/**/*.spec.ts'],
};
