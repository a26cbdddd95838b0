// Component and unit tests of the web app: jsdom, React Testing Library, TSX compiled by SWC.
// ESM-only packages (react-router, uqr) are compiled to CommonJS too.
module.exports = {
  displayName: 'web',
  rootDir: __dirname,
  testEnvironment: '<rootDir>/src/test/jsdom-environment.cjs',
  // https: the session cookies are Secure, and jsdom (like a browser) keeps them only on secure origins.
  testEnvironmentOptions: { url: 'https://localhost/' },
  testMatch: ['<rootDir>/src/**/*.spec.{ts,tsx}'],
  transform: {
    '^.+\\.(t|j|mj)sx?$': [
      '@swc/jest',
      {
        jsc: { parser: { syntax: 'typescript', tsx: true }, transform: { react: { runtime: 'automatic' } }, target: 'es2022' },
        module: { type: 'commonjs' },
      },
    ],
  },
  transformIgnorePatterns: ['/node_modules/(?!(react-router|uqr|cookie|set-cookie-parser)/)'],
  moduleNameMapper: { '\\.css$': '<rootDir>/src/test/style-stub.cjs' },
  setupFilesAfterEnv: ['<rootDir>/src/test/setup.ts'],
  clearMocks: true,
};
