// Tests of the deployment artefacts: helm/medfolio, deploy/*.yaml, docker/. They need helm and
// kube-score (libs/tooling/install-tools.sh installs them; src/tools.ts finds them).
const preset = require('../../jest.preset.cjs');
const swcOptions = require('../../libs/tooling/swc-options.cjs');

const options = swcOptions();
// Keep `import()` as a real dynamic import: kubernetes-models is ESM-only (its exports map has no
// "require" condition), and Jest loads it as an ES module (NODE_OPTIONS=--experimental-vm-modules).
options.module = { ...options.module, ignoreDynamic: true };

module.exports = {
  ...preset,
  displayName: 'deploy',
  rootDir: __dirname,
  testMatch: ['<rootDir>/**/*.spec.ts'],
  transform: { '^.+\\.ts$': ['@swc/jest', options] },
  // helm and kube-score run as child processes; the first run may install them.
  testTimeout: 60_000,
  globalSetup: '<rootDir>/src/global-setup.ts',
};
