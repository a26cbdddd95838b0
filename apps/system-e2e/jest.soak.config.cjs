const preset = require('../../jest.preset.cjs');

// The soak (src/soak.soak-spec.ts): its own NATS and PostgreSQL, SOAK_MINUTES of load against the BUILT
// product (dist/). `npm test` starts it in the background before the unit tests and checks it at the end.
module.exports = {
  ...preset,
  displayName: 'soak',
  rootDir: __dirname,
  testMatch: ['<rootDir>/src/**/*.soak-spec.ts'],
};
