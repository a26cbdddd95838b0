const preset = require('../../jest.preset.cjs');

module.exports = { ...preset, displayName: 'storage', rootDir: __dirname, testMatch: ['<rootDir>/src/**/*.spec.ts'] };
