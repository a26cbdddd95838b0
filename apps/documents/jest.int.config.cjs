const preset = require('../../jest.preset.cjs');

// Service URLs from the environment, else Testcontainers where Docker runs, else the local services.
const services = {
  globalSetup: require.resolve('../../libs/testing/src/testcontainers.global-setup.ts'),
  globalTeardown: require.resolve('../../libs/testing/src/testcontainers.global-teardown.ts'),
};

module.exports = {
  ...preset,
  ...services,
  displayName: 'documents:int',
  rootDir: __dirname,
  testMatch: ['<rootDir>/src/**/*.int-spec.ts'],
};
