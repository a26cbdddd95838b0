const preset = require('../../jest.preset.cjs');

module.exports = { ...preset, displayName: 'notifications', rootDir: __dirname, testMatch: ['<rootDir>/src/**/*.spec.ts'] };
