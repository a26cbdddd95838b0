import { spawnSync } from 'node:child_process';
import path from 'node:path';

const root = path.resolve(__dirname, '../../..');
const bin = (name: string) => path.join(root, 'node_modules/.bin', name);
// No telemetry or update checks: the lint runs offline.
const env = { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_COLOR: '1' };

/**
 * The API document made from the route table, linted by two tools others wrote, with the rules in
 * redocly.yaml and .spectral.yaml (the only rule switched off: paths end in '/', as the product
 * contract writes them).
 */
describe('the OpenAPI document (docs/api/openapi.json)', () => {
  it('passes Redocly lint with no error', () => {
    const run = spawnSync(bin('redocly'), ['lint', 'docs/api/openapi.json', '--format=stylish'], { cwd: root, encoding: 'utf8', env });
    expect(`${run.stdout}${run.stderr}`).toMatch(/Your API description is valid/);
    expect(run.status).toBe(0);
  }, 120_000);

  it('passes Spectral lint (spectral:oas) with no error', () => {
    const run = spawnSync(bin('spectral'), ['lint', 'docs/api/openapi.json', '--fail-severity=error', '--format=text'], { cwd: root, encoding: 'utf8', env });
    expect(run.stdout).not.toMatch(/ error /);
    expect(run.status).toBe(0);
  }, 120_000);
});
