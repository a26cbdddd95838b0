// `npm run test:unit [project...]` / `npm run test:int [project...]`: one kind of test, all or some projects.
import { spawnSync } from 'node:child_process';

const [kind = 'unit', ...projects] = process.argv.slice(2);
const target = { unit: 'test', int: 'int', e2e: 'e2e' }[kind];
if (!target) {
  console.error(`Unknown test kind "${kind}": use unit, int or e2e`);
  process.exit(2);
}
const args = ['nx', 'run-many', '-t', target, '--outputStyle=stream', ...(projects.length ? ['-p', ...projects] : [])];
const env = {
  ...process.env,
  NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --experimental-vm-modules --no-warnings`.trim(),
  NX_DAEMON: 'false',
  NX_NO_CLOUD: 'true',
  NX_TUI: 'false',
};
const result = spawnSync('npx', args, { stdio: 'inherit', env });
process.exit(result.status ?? 1);
