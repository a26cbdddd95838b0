const preset = require('../../jest.preset.cjs');

module.exports = { ...preset, displayName: 'tooling', rootDir: __dirname, testMatch: ['<rootDir>/**/*.spec.ts'] };
