// `npm run api:generate`: writes the gateway's OpenAPI document to apps/web/src/api/openapi.json
// and regenerates the web app's RTK Query endpoints (apps/web/src/api/generated.ts) from it with
// @rtk-query/codegen-openapi, so the web app's request and response types cannot drift from the
// gateway. apps/gateway/src/openapi/export-openapi.spec.ts fails when the committed copy is out of date.
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { build } from '../build.mjs';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../../..');
const require = createRequire(import.meta.url);

await build({ web: false });
delete process.env.REDIS_URL; // the document needs no rate-limit store
require('reflect-metadata');
const { exportOpenApi } = require(path.join(root, 'dist/apps/gateway/src/openapi/export-openapi.js'));
const document = await exportOpenApi();
const target = path.join(root, 'apps/web/src/api/openapi.json');
await writeFile(target, `${JSON.stringify(document, null, 2)}\n`);
console.log(`wrote ${path.relative(root, target)} (${Object.keys(document.paths).length} paths)`);

const codegen = spawnSync(path.join(root, 'node_modules/.bin/rtk-query-codegen-openapi'), ['apps/web/openapi-config.cjs'], {
  cwd: root,
  stdio: 'inherit',
});
if (codegen.status !== 0) process.exit(codegen.status ?? 1);
spawnSync(path.join(root, 'node_modules/.bin/prettier'), ['--write', 'apps/web/src/api/generated.ts'], { cwd: root, stdio: 'inherit' });
