// One SWC configuration for the build (tools/build.mjs) and for Jest (jest.preset.cjs):
// TypeScript with legacy decorators and emitted decorator metadata (Nest's DI needs it),
// compiled to CommonJS for Node 24 (which can require() the ESM-only Nest 12 packages).
module.exports = function swcOptions() {
  return {
    jsc: {
      parser: { syntax: 'typescript', decorators: true },
      transform: { legacyDecorator: true, decoratorMetadata: true, useDefineForClassFields: false },
      target: 'es2023',
      keepClassNames: true,
    },
    module: { type: 'commonjs', strictMode: true },
    sourceMaps: 'inline',
  };
};
