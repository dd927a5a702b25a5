const preset = require('../../../jest.preset.js');

module.exports = {
  ...preset,
  displayName: 'shared-json-rpc',
  rootDir: __dirname,
  testMatch: ['<rootDir>/src/**/*.spec.ts'],
};
