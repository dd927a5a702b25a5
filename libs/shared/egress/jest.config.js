const preset = require('../../../jest.preset.js');

module.exports = {
  ...preset,
  displayName: 'shared-egress',
  rootDir: __dirname,
  testMatch: ['<rootDir>/src/**/*.spec.ts'],
};
