const preset = require('../../jest.preset.cjs');

module.exports = { ...preset, displayName: 'connections', rootDir: __dirname, testMatch: ['<rootDir>/src/**/*.spec.ts'] };
