const preset = require('../../jest.preset.cjs');

module.exports = { ...preset, displayName: 'summary', rootDir: __dirname, testMatch: ['<rootDir>/src/**/*.spec.ts'] };
