const preset = require('../../../jest.preset.js');

module.exports = {
  ...preset,
  displayName: 'shared-http-server',
  rootDir: __dirname,
  testMatch: ['<rootDir>/src/**/*.spec.ts'],
};
