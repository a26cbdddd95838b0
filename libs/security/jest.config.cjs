const preset = require('../../jest.preset.cjs');

module.exports = { ...preset, displayName: 'security', rootDir: __dirname, testMatch: ['<rootDir>/src/**/*.spec.ts'] };
