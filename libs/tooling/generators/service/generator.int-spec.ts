import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import { Client } from 'pg';

/**
 * The generator's promise, checked as CI would: in a copy of this workspace (the files git tracks
 * or would track, as they are now; node_modules linked), `nx g @medfolio/tooling:service` makes a
 * service, and then, untouched, the type check, lint, build, and the new service's unit and
 * integration tests pass.
 */
const root = path.resolve(__dirname, '../../../..');
const name = 'kitprobe';
const bin = (tool: string) => path.join(root, 'node_modules/.bin', tool);
const databaseUrl = process.env['DATABASE_URL'] ?? 'postgres://postgres@127.0.0.1:5432/test';

function run(workspace: string, command: string, args: string[]): string {
  const result = spawnSync(command, args, {
    cwd: workspace,
    encoding: 'utf-8',
    env: { ...process.env, NX_DAEMON: 'false', NX_NO_CLOUD: 'true', NX_TUI: 'false', FORCE_COLOR: '0', DATABASE_URL: databaseUrl },
  });
  // Run through `npm run test:int`, nx passes FORCE_COLOR on: without colour codes, "CREATE apps/..." is found.
  const output = stripVTControlCharacters(`${result.stdout}\n${result.stderr}`);
  if (result.status !== 0) throw new Error(`${path.basename(command)} ${args.join(' ')} failed (${result.status}):\n${output.slice(-4000)}`);
  return output;
}

describe('nx g @medfolio/tooling:service', () => {
  let workspace: string;

  beforeAll(() => {
    workspace = mkdtempSync(path.join(tmpdir(), 'medfolio-generator-'));
    const files = execFileSync('git', ['ls-files', '-co', '--exclude-standard', '-z'], { cwd: root, encoding: 'utf-8' })
      .split('\0')
      // The web app is its own world (Vite, its own tsconfig): a service never touches it.
      .filter((file) => file && !file.startsWith('apps/web/') && existsSync(path.join(root, file)));
    for (const file of files) cpSync(path.join(root, file), path.join(workspace, file), { recursive: true });
    symlinkSync(path.join(root, 'node_modules'), path.join(workspace, 'node_modules'), 'dir');
  });

  afterAll(async () => {
    if (workspace) rmSync(workspace, { recursive: true, force: true });
    // The generated integration test ran on the service's own schema.
    const client = new Client({ connectionString: databaseUrl });
    await client.connect();
    await client.query(`DROP SCHEMA IF EXISTS "${name}" CASCADE`);
    await client.end();
  });

  it('makes a service that passes the type check, lint, build and its own tests untouched', () => {
    const generated = run(workspace, bin('nx'), ['g', '@medfolio/tooling:service', name, '--no-interactive']);
    expect(generated).toContain(`CREATE apps/${name}/src/app.module.ts`);
    expect(readFileSync(path.join(workspace, 'apps/medfolio/src/services.ts'), 'utf-8')).toContain(`${name.toUpperCase()}_SERVICE,`);

    run(workspace, bin('tsc'), ['-p', 'tsconfig.json']);
    run(workspace, bin('eslint'), [`apps/${name}`, 'libs/contracts/src', 'apps/medfolio/src']);
    // The build of every app and lib (SWC), without the web app, which the copy leaves out.
    run(workspace, process.execPath, ['--input-type=module', '-e', "const { build } = await import('./libs/tooling/build.mjs'); await build({ web: false });"]);
    expect(existsSync(path.join(workspace, `dist/apps/${name}/src/main.js`))).toBe(true);

    const jest = (config: string) => run(workspace, process.execPath, ['--experimental-vm-modules', '--no-warnings', bin('jest'), '-c', config, '--runInBand']);
    expect(jest(`apps/${name}/jest.config.cjs`)).toMatch(/Tests:\s+3 passed, 3 total/);
    expect(jest(`apps/${name}/jest.int.config.cjs`)).toMatch(/Tests:\s+3 passed, 3 total/);
  });

  it('refuses a second service of the same name, and a name that cannot be a schema or subject', () => {
    expect(() => run(workspace, bin('nx'), ['g', '@medfolio/tooling:service', name, '--no-interactive'])).toThrow(/already exists/);
    expect(() => run(workspace, bin('nx'), ['g', '@medfolio/tooling:service', 'Bad-Name', '--no-interactive'])).toThrow(/Bad-Name/);
  });
});
