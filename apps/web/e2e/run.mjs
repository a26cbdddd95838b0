// `nx run web:e2e`: builds the product (web app included) and runs the Playwright browser tests
// against it. Results: tmp/test-results/web.e2e.json (counted by npm test); screenshots of every
// screen at 390 and 1280 px: tmp/web-e2e/screenshots/; traces of failures: tmp/web-e2e/artifacts/.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { build } from '../../../libs/tooling/build.mjs';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../../..');
await build();
const result = spawnSync(path.join(root, 'node_modules/.bin/playwright'), ['test', '-c', 'apps/web/playwright.config.ts', ...process.argv.slice(2)], {
  cwd: root,
  stdio: 'inherit',
  env: { ...process.env, PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: '1' },
});
process.exit(result.status ?? 1);
