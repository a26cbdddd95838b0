// @rtk-query/codegen-openapi settings: `npm run api:generate` (libs/tooling/scripts/api-generate.mjs).
/** @type {import('@rtk-query/codegen-openapi').ConfigFile} */
module.exports = {
  schemaFile: './src/api/openapi.json',
  apiFile: './src/api/empty-api.ts',
  apiImport: 'emptyApi',
  outputFile: './src/api/generated.ts',
  exportName: 'medfolioApi',
  hooks: true,
  tag: true,
};
