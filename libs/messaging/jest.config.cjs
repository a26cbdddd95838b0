const preset = require('../../jest.preset.cjs');

module.exports = { ...preset, displayName: 'messaging', rootDir: __dirname, testMatch: ['<rootDir>/src/**/*.spec.ts'] };
