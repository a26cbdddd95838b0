const preset = require('../../jest.preset.cjs');

module.exports = { ...preset, displayName: 'identity', rootDir: __dirname, testMatch: ['<rootDir>/src/**/*.spec.ts'] };
