const preset = require('../../../jest.preset.js');

module.exports = {
  ...preset,
  displayName: 'shared-job-bus',
  rootDir: __dirname,
  testMatch: ['<rootDir>/src/**/*.spec.ts'],
};
