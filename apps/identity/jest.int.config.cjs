const preset = require('../../jest.preset.cjs');

module.exports = { ...preset, displayName: 'identity:int', rootDir: __dirname, testMatch: ['<rootDir>/src/**/*.int-spec.ts'] };
