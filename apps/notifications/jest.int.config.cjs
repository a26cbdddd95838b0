const preset = require('../../jest.preset.cjs');

module.exports = { ...preset, displayName: 'notifications:int', rootDir: __dirname, testMatch: ['<rootDir>/src/**/*.int-spec.ts'] };
