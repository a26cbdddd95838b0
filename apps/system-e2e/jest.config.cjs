const preset = require('../../jest.preset.cjs');

// System tests drive the BUILT product (dist/, from `npm run build`) as separate processes over HTTP.
module.exports = {
  ...preset,
  displayName: 'system-e2e',
  rootDir: __dirname,
  testMatch: ['<rootDir>/src/**/*.e2e-spec.ts'],
  testTimeout: 90_000,
};
