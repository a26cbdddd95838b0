import { spawnSync } from 'node:child_process';
import path from 'node:path';

const root = path.resolve(__dirname, '../../..');

/**
 * The OpenAPI document, the API reference, the schemas and the web app's client are all made from
 * the route table; this fails when one of the committed copies is not what the table makes now.
 */
describe('npm run api:generate', () => {
  it('has been run since the route table or a contract type last changed', () => {
    const run = spawnSync(process.execPath, ['-r', '@swc-node/register', '-r', 'tsconfig-paths/register', 'libs/tooling/api/generate.ts', '--check'], { cwd: root, encoding: 'utf8' });
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
  }, 60_000);
});
