const preset = require('../../jest.preset.cjs');

module.exports = { ...preset, displayName: 'documents', rootDir: __dirname, testMatch: ['<rootDir>/src/**/*.spec.ts'] };
