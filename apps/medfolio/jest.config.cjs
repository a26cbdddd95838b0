const preset = require('../../jest.preset.cjs');

module.exports = { ...preset, displayName: 'medfolio', rootDir: __dirname, testMatch: ['<rootDir>/src/**/*.spec.ts'] };
