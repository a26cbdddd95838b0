const preset = require('../../jest.preset.cjs');

// Reading records runs OCR workers and child processes: 30 s per test leaves room on a loaded machine.
module.exports = {
  ...preset,
  displayName: 'clinical',
  rootDir: __dirname,
  testMatch: ['<rootDir>/src/**/*.spec.ts', '<rootDir>/quality/**/*.spec.ts'],
  testTimeout: 30_000,
};
