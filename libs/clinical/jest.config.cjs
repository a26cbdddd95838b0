const preset = require('../../jest.preset.cjs');

module.exports = { ...preset, displayName: 'clinical', rootDir: __dirname, testMatch: ['<rootDir>/src/**/*.spec.ts', '<rootDir>/quality/**/*.spec.ts'] };
