const preset = require('../../jest.preset.cjs');

module.exports = { ...preset, displayName: 'runtime', rootDir: __dirname, testMatch: ['<rootDir>/src/**/*.spec.ts'] };
