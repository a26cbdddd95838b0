const preset = require('../../jest.preset.cjs');

module.exports = { ...preset, displayName: 'config', rootDir: __dirname, testMatch: ['<rootDir>/src/**/*.spec.ts'] };
