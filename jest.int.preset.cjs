// Shared Jest settings of the integration tests (each project's jest.int.config.cjs spreads this).
const preset = require('./jest.preset.cjs');

module.exports = {
  ...preset,
  // Service URLs from the environment, else Testcontainers where Docker runs, else the local services.
  globalSetup: require.resolve('./libs/testing/src/testcontainers.global-setup.ts'),
  globalTeardown: require.resolve('./libs/testing/src/testcontainers.global-teardown.ts'),
  // Real PostgreSQL, NATS and S3 shared by every project's integration tests at once (CI runs them in
  // parallel on two cores): a statement or hook can take seconds there. Jest's 5 s default once cut
  // off a TRUNCATE in a beforeEach; a wait longer than this is a real failure.
  testTimeout: 30_000,
  testMatch: ['<rootDir>/src/**/*.int-spec.ts'],
};
