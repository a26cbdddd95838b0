import path from 'node:path';
import { ESLint } from 'eslint';
import nx from '@nx/eslint-plugin';
import tseslint from 'typescript-eslint';
const moduleBoundaries = require('./module-boundaries.cjs').production;

const root = path.resolve(__dirname, '../../..');

/**
 * The architecture's import rules are lint errors. Each case lints a small piece of code as if it
 * were a file of the named project, with the workspace's real constraints and project tags.
 */
async function boundaryErrors(file: string, code: string): Promise<string[]> {
  const eslint = new ESLint({
    cwd: root,
    overrideConfigFile: true,
    overrideConfig: [
      { files: ['**/*.ts'], languageOptions: { parser: tseslint.parser }, plugins: { '@nx': nx as unknown as ESLint.Plugin } },
      { files: ['**/*.ts'], rules: { '@nx/enforce-module-boundaries': ['error', moduleBoundaries] } },
    ],
  });
  const [result] = await eslint.lintText(code, { filePath: path.join(root, file) });
  return result!.messages.map((m) => m.message);
}

describe('module boundaries (lint)', () => {
  jest.setTimeout(60_000);

  it('lets a service use contracts and shared server libs', async () => {
    expect(
      await boundaryErrors(
        'apps/audit/src/example.ts',
        `import { SUBJECTS } from '@medfolio/contracts';\nimport { Caller } from '@medfolio/messaging';\nexport const x = [SUBJECTS, Caller];\n`,
      ),
    ).toEqual([]);
  });

  it("refuses a service importing another app's code by alias", async () => {
    expect(await boundaryErrors('apps/audit/src/example.ts', `import { GatewayConfig } from '@medfolio/gateway-app';\nexport const x = GatewayConfig;\n`)).toEqual([
      'Imports of apps are forbidden',
    ]);
  });

  it("refuses a service importing another app's code by relative path", async () => {
    expect(await boundaryErrors('apps/audit/src/example.ts', `import { GatewayConfig } from '../../gateway/src/config';\nexport const x = GatewayConfig;\n`)).toEqual([
      'Projects cannot be imported by a relative or absolute path, and must begin with a npm scope',
    ]);
  });

  it('refuses contracts depending on a server lib', async () => {
    const errors = await boundaryErrors('libs/contracts/src/example.ts', `import { signAccessToken } from '@medfolio/security';\nexport const x = signAccessToken;\n`);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toContain('A project tagged with "type:contracts" can only depend on libs tagged with "type:contracts"');
  });

  it('refuses a server lib depending on a service', async () => {
    // Every lib is already a dependency of some app, so the rule may name the cycle first; either
    // way the import is refused by the boundary rule.
    const errors = await boundaryErrors('libs/testing/src/example.ts', `import { AuditConfig } from '@medfolio/audit-app';\nexport const x = AuditConfig;\n`);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(/^(Imports of apps are forbidden|Circular dependency between "testing" and "audit")/);
  });
});
