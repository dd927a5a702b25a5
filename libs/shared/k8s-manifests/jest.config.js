const preset = require('../../../jest.preset.js');

module.exports = {
  ...preset,
  displayName: 'shared-k8s-manifests',
  rootDir: __dirname,
  testMatch: ['<rootDir>/src/**/*.spec.ts'],
};
