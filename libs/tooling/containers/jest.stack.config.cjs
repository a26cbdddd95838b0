const preset = require('../../../jest.preset.cjs');

// The system journeys against the stack of containers (docker/stack.sh test, npm run stack:test):
// the product runs from its images; this only drives it over HTTP, as a browser would.
module.exports = {
  ...preset,
  displayName: 'stack',
  rootDir: __dirname,
  testMatch: ['<rootDir>/*.stack-spec.ts'],
  testTimeout: 300_000,
};
