const preset = require('../../jest.preset.cjs');

module.exports = { ...preset, displayName: 'wallet', rootDir: __dirname, testMatch: ['<rootDir>/src/**/*.spec.ts'] };
