import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const root = path.resolve(__dirname, '../../..');

/**
 * The boundaries as a plain `eslint <file>` sees them: the root eslint.config.mjs, run by the ESLint
 * CLI with an empty Nx data directory (a fresh clone: no cached project graph, which used to make the
 * rule skip itself). Each probe is a small file placed for the run inside a real project, so the
 * project's tags and the file's kind (production or test code) decide.
 */
interface Probe {
  file: string;
  imports: string[];
}

const probes = {
  gatewayPersistence: { file: 'apps/gateway/src/zz-boundary-probe.ts', imports: ['@medfolio/persistence'] },
  gatewayClinical: { file: 'apps/gateway/src/zz-boundary-probe-clinical.ts', imports: ['@medfolio/clinical'] },
  gatewayServiceKit: { file: 'apps/gateway/src/zz-boundary-probe-kit.ts', imports: ['@medfolio/runtime/service-kit', '@medfolio/messaging/outbox'] },
  gatewayTypeorm: { file: 'apps/gateway/src/zz-boundary-probe-typeorm.ts', imports: ['typeorm'] },
  gatewayAllowed: { file: 'apps/gateway/src/zz-boundary-probe-ok.ts', imports: ['@medfolio/contracts', '@medfolio/runtime', '@medfolio/messaging'] },
  walletTesting: { file: 'apps/wallet/src/zz-boundary-probe.ts', imports: ['@medfolio/testing'] },
  walletAllowed: {
    file: 'apps/wallet/src/zz-boundary-probe-ok.ts',
    imports: ['@medfolio/contracts', '@medfolio/runtime/service-kit', '@medfolio/messaging/outbox', '@medfolio/persistence'],
  },
  walletTestSupport: { file: 'apps/wallet/src/testing/zz-boundary-probe.ts', imports: ['@medfolio/testing'] },
  // *.e2e-spec.ts: test code for the linter, and outside the audit project's Jest match.
  auditTestFile: { file: 'apps/audit/src/zz-boundary-probe.e2e-spec.ts', imports: ['@medfolio/testing'] },
  auditClinical: { file: 'apps/audit/src/zz-boundary-probe.ts', imports: ['@medfolio/clinical'] },
  // security: a lib that test support does not itself use (messaging would first be a cycle).
  libTesting: { file: 'libs/security/src/zz-boundary-probe.ts', imports: ['@medfolio/testing'] },
  launcherApps: { file: 'apps/medfolio/src/zz-boundary-probe.ts', imports: ['@medfolio/audit-app', '@medfolio/persistence'] },
  launcherTesting: { file: 'apps/medfolio/src/zz-boundary-probe-testing.ts', imports: ['@medfolio/testing'] },
} satisfies Record<string, Probe>;

type Name = keyof typeof probes;

interface LintMessage {
  ruleId: string | null;
  message: string;
}

let found: Record<Name, LintMessage[]>;

function source(imports: string[]): string {
  const lines = imports.map((from, index) => `import * as m${index} from '${from}';`);
  return `${lines.join('\n')}\nexport const probe = [${imports.map((_, index) => `m${index}`).join(', ')}];\n`;
}

beforeAll(() => {
  const written = Object.values(probes).map((probe) => path.join(root, probe.file));
  const dataDirectory = mkdtempSync(path.join(tmpdir(), 'nx-data-'));
  try {
    for (const [index, probe] of Object.values(probes).entries()) writeFileSync(written[index]!, source(probe.imports));
    const env: NodeJS.ProcessEnv = { ...process.env, NX_WORKSPACE_DATA_DIRECTORY: dataDirectory, NX_DAEMON: 'false' };
    delete env['NX_TASK_TARGET_PROJECT'];
    const run = spawnSync(process.execPath, [path.join(root, 'node_modules/eslint/bin/eslint.js'), '--format', 'json', ...written], {
      cwd: root,
      env,
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
    });
    if (run.stdout.trim() === '') throw new Error(`eslint printed no report (exit ${run.status}): ${run.stderr}`);
    const results = JSON.parse(run.stdout) as { filePath: string; messages: LintMessage[] }[];
    const byFile = new Map(results.map((result) => [result.filePath, result.messages]));
    found = Object.fromEntries(
      Object.entries(probes).map(([name, probe]) => [name, (byFile.get(path.join(root, probe.file)) ?? []).filter((m) => m.ruleId !== '@typescript-eslint/no-non-null-assertion')]),
    ) as Record<Name, LintMessage[]>;
  } finally {
    for (const file of written) rmSync(file, { force: true });
    rmSync(dataDirectory, { recursive: true, force: true });
  }
}, 240_000);

const boundary = (name: Name) => found[name].filter((m) => m.ruleId === '@nx/enforce-module-boundaries').map((m) => m.message);
const restricted = (name: Name) => found[name].filter((m) => m.ruleId === 'no-restricted-imports').map((m) => m.message);

describe('module boundaries under a plain eslint (root config, no cached project graph)', () => {
  it('refuses the gateway importing persistence or clinical', () => {
    const onlyKit = 'A project tagged with "scope:gateway" can only depend on libs tagged with "scope:shared", "scope:kit"';
    expect(boundary('gatewayPersistence')).toEqual([onlyKit]);
    expect(boundary('gatewayClinical')).toEqual([onlyKit]);
  });

  it("refuses the gateway importing the kit's database parts and the database packages", () => {
    expect(restricted('gatewayServiceKit')).toHaveLength(2);
    expect(restricted('gatewayServiceKit')[0]).toContain("'@medfolio/runtime/service-kit' import is restricted");
    expect(restricted('gatewayServiceKit')[1]).toContain("'@medfolio/messaging/outbox' import is restricted");
    expect(boundary('gatewayTypeorm')).toEqual(['A project tagged with "type:gateway" is not allowed to import "typeorm"']);
  });

  it('lets the gateway use contracts and the kit', () => {
    expect(found.gatewayAllowed).toEqual([]);
  });

  it('refuses production code importing @medfolio/testing (a service, a lib, the launcher)', () => {
    expect(boundary('walletTesting')).toEqual(['A project tagged with "type:service" can only depend on libs tagged with "type:contracts", "type:server-lib"']);
    expect(boundary('libTesting')).toEqual(['A project tagged with "type:server-lib" can only depend on libs tagged with "type:contracts", "type:server-lib"']);
    expect(boundary('launcherTesting')).toEqual([
      'A project tagged with "type:launcher" can only depend on libs tagged with "type:service", "type:gateway", "type:contracts", "type:server-lib"',
    ]);
  });

  it('lets test files and testing/ folders import @medfolio/testing', () => {
    expect(found.walletTestSupport).toEqual([]);
    expect(found.auditTestFile).toEqual([]);
  });

  it('lets a service use contracts, the kit, its database parts and persistence', () => {
    expect(found.walletAllowed).toEqual([]);
  });

  it('keeps clinical to summary and documents', () => {
    expect(boundary('auditClinical')).toEqual([
      'A project tagged with "scope:audit" can only depend on libs tagged with "scope:shared", "scope:kit", "scope:database"',
    ]);
  });

  it('lets the launcher (only) import apps', () => {
    expect(found.launcherApps).toEqual([]);
  });
});
