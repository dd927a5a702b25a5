const preset = require('../../jest.preset.js');

module.exports = {
  ...preset,
  displayName: 'gateway',
  rootDir: __dirname,
  testMatch: ['<rootDir>/src/**/*.spec.ts'],
};
