// Shared Jest settings for every project. Each project's jest.config.cjs spreads this.
// Jest must run with NODE_OPTIONS=--experimental-vm-modules so it can require() the ESM-only
// NestJS 12 packages (libs/tooling/scripts/jest.mjs and the npm scripts set it).
const path = require('node:path');
const tsconfig = require('./tsconfig.base.json');
const swcOptions = require('./libs/tooling/swc-options.cjs');

const moduleNameMapper = {};
for (const [alias, [target]] of Object.entries(tsconfig.compilerOptions.paths)) {
  moduleNameMapper[`^${alias.replace('/', '\\/')}$`] = path.join(__dirname, target);
}

module.exports = {
  testEnvironment: 'node',
  transform: { '^.+\\.ts$': ['@swc/jest', swcOptions()] },
  moduleFileExtensions: ['ts', 'js', 'cjs', 'mjs', 'json'],
  moduleNameMapper,
  clearMocks: true,
  // Nest and class-transformer read decorator metadata; in apps main.ts imports it first.
  setupFiles: ['reflect-metadata'],
};
