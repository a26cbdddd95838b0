const preset = require('../../jest.preset.cjs');

module.exports = { ...preset, displayName: 'audit', rootDir: __dirname, testMatch: ['<rootDir>/src/**/*.spec.ts'] };
