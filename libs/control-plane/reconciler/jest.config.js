const preset = require('../../../jest.preset.js');

module.exports = {
  ...preset,
  displayName: 'control-plane-reconciler',
  rootDir: __dirname,
  testMatch: ['<rootDir>/src/**/*.spec.ts'],
};
