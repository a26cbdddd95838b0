const preset = require('../../jest.preset.cjs');

module.exports = { ...preset, displayName: 'testing', rootDir: __dirname, testMatch: ['<rootDir>/src/**/*.spec.ts'] };
