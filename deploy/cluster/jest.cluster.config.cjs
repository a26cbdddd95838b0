const preset = require('../../jest.preset.cjs');

// The system journeys against the chart's release on the single-node cluster (deploy/cluster/test.sh,
// npm run cluster:test): the product runs in Kubernetes from its images; this only drives it over HTTP.
module.exports = {
  ...preset,
  displayName: 'cluster',
  rootDir: __dirname,
  testMatch: ['<rootDir>/*.cluster-spec.ts'],
  testTimeout: 300_000,
};
