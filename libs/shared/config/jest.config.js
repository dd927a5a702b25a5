const preset = require('../../../jest.preset.js');

module.exports = {
  ...preset,
  displayName: 'shared-config',
  rootDir: __dirname,
  testMatch: ['<rootDir>/src/**/*.spec.ts'],
};
