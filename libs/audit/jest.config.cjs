const preset = require('../../jest.preset.cjs');

module.exports = { ...preset, displayName: 'audit-client', rootDir: __dirname, testMatch: ['<rootDir>/src/**/*.spec.ts'] };
