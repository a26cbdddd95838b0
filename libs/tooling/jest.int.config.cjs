// The generator's integration test: it makes a service in a copy of the workspace and runs the
// type check, lint, build and that service's tests there (minutes, and PostgreSQL).
module.exports = {
  ...require('../../jest.int.preset.cjs'),
  displayName: 'tooling:int',
  rootDir: __dirname,
  testMatch: ['<rootDir>/generators/**/*.int-spec.ts'],
  testTimeout: 600_000,
};
