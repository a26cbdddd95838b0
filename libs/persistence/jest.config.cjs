const preset = require('../../jest.preset.cjs');

module.exports = { ...preset, displayName: 'persistence', rootDir: __dirname, testMatch: ['<rootDir>/src/**/*.spec.ts'] };
