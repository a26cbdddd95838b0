const preset = require('../../jest.preset.cjs');

// System tests drive the BUILT product (dist/, from `npm run build`) as separate processes over HTTP.
// Service URLs from the environment, else Testcontainers where Docker runs, else the local services.
const services = {
  globalSetup: require.resolve('../../libs/testing/src/testcontainers.global-setup.ts'),
  globalTeardown: require.resolve('../../libs/testing/src/testcontainers.global-teardown.ts'),
};

module.exports = {
  ...preset,
  ...services,
  displayName: 'system-e2e',
  rootDir: __dirname,
  testMatch: ['<rootDir>/src/**/*.e2e-spec.ts'],
  testTimeout: 90_000,
  // Every /api answer is checked against the API document (support/conformance.ts).
  setupFilesAfterEnv: [...(preset.setupFilesAfterEnv ?? []), '<rootDir>/src/support/conformance.setup.ts'],
};
