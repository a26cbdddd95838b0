const preset = require('../../jest.preset.cjs');

module.exports = { ...preset, displayName: 'observability', rootDir: __dirname, testMatch: ['<rootDir>/src/**/*.spec.ts'] };
