// Who may import what (the architecture, enforced by @nx/enforce-module-boundaries).
// Tags live in each project.json. See docs/architecture.md "Who may import what".
//
// Two kinds of tag, and every constraint matching a project's tags must hold:
// - type:*  the layer. contracts < server libs < services, gateway < the launcher; type:testing is
//   test support (libs/testing), which production code never imports.
// - scope:* who may use a lib. scope:shared (contracts), scope:kit (the libraries every process
//   uses: runtime, messaging, config, observability, security, storage, audit-client),
//   scope:database (persistence), scope:clinical (the clinical engine), scope:testing.
//   Each app's scope says which of those it may import: the gateway only shared and kit; the
//   services also database; summary and documents also clinical.
//
// Test code (spec files, testing/ folders, e2e projects) gets the same constraints with test support
// added: see `TEST_FILES` and `forTests`.

/** Files that are test code: they may import @medfolio/testing (the build skips all of them). */
const TEST_FILES = [
  '**/*.spec.ts',
  '**/*.spec.tsx',
  '**/*.int-spec.ts',
  '**/*.e2e-spec.ts',
  '**/*.soak-spec.ts',
  '**/*.pw.ts',
  '**/testing/**/*.ts',
  '**/testing/**/*.tsx',
  'apps/web/e2e/**/*.ts',
];

const SERVICE_LIBS = ['scope:shared', 'scope:kit', 'scope:database'];

/** The gateway holds no database: TypeORM, the Postgres driver and PGlite are never its imports. */
const DATABASE_PACKAGES = ['typeorm', '@nestjs/typeorm', 'pg', 'pg-*', '@electric-sql/*'];

const production = [
  // Layers.
  { sourceTag: 'type:contracts', onlyDependOnLibsWithTags: ['type:contracts'] },
  { sourceTag: 'type:server-lib', onlyDependOnLibsWithTags: ['type:contracts', 'type:server-lib'] },
  { sourceTag: 'type:service', onlyDependOnLibsWithTags: ['type:contracts', 'type:server-lib'] },
  { sourceTag: 'type:gateway', onlyDependOnLibsWithTags: ['type:contracts', 'type:server-lib'], bannedExternalImports: DATABASE_PACKAGES },
  { sourceTag: 'type:launcher', onlyDependOnLibsWithTags: ['type:service', 'type:gateway', 'type:contracts', 'type:server-lib'] },
  { sourceTag: 'type:testing', onlyDependOnLibsWithTags: ['type:contracts', 'type:server-lib', 'type:testing'] },
  { sourceTag: 'type:e2e', onlyDependOnLibsWithTags: ['type:contracts', 'type:server-lib', 'type:testing'] },
  { sourceTag: 'type:tooling', onlyDependOnLibsWithTags: ['*'] },
  { sourceTag: 'platform:web', onlyDependOnLibsWithTags: ['platform:web', 'platform:shared'] },
  // Scopes: which libs each app may use.
  { sourceTag: 'scope:gateway', onlyDependOnLibsWithTags: ['scope:shared', 'scope:kit'] },
  { sourceTag: 'scope:audit', onlyDependOnLibsWithTags: SERVICE_LIBS },
  { sourceTag: 'scope:billing', onlyDependOnLibsWithTags: SERVICE_LIBS },
  { sourceTag: 'scope:identity', onlyDependOnLibsWithTags: SERVICE_LIBS },
  { sourceTag: 'scope:notifications', onlyDependOnLibsWithTags: SERVICE_LIBS },
  { sourceTag: 'scope:wallet', onlyDependOnLibsWithTags: SERVICE_LIBS },
  { sourceTag: 'scope:summary', onlyDependOnLibsWithTags: [...SERVICE_LIBS, 'scope:clinical'] },
  // documents reads only `@medfolio/clinical/structured` (sniffing a structured record on upload).
  { sourceTag: 'scope:documents', onlyDependOnLibsWithTags: [...SERVICE_LIBS, 'scope:clinical'] },
];

/** Test code: the same constraints, plus test support (never across platforms: web stays web). */
function forTests(constraints) {
  return constraints.map((constraint) => {
    const tags = constraint.onlyDependOnLibsWithTags;
    if (constraint.sourceTag.startsWith('platform:') || tags.includes('*')) return constraint;
    const extra = constraint.sourceTag.startsWith('scope:') ? 'scope:testing' : 'type:testing';
    return tags.includes(extra) ? constraint : { ...constraint, onlyDependOnLibsWithTags: [...tags, extra] };
  });
}

const base = { enforceBuildableLibDependency: false, allow: [] };
const LAUNCHER_ALLOW = ['^@medfolio/[a-z-]+-app$'];

module.exports = {
  TEST_FILES,
  /** Options for production files (the default for every .ts/.tsx file). */
  production: { ...base, depConstraints: production },
  /** Options for TEST_FILES. */
  tests: { ...base, depConstraints: forTests(production) },
  /**
   * The launcher (apps/medfolio) is the composition root: the one project that imports apps, through
   * their `@medfolio/<name>-app` alias; every other constraint still holds for it.
   */
  launcher: { ...base, allow: LAUNCHER_ALLOW, depConstraints: production },
  launcherTests: { ...base, allow: LAUNCHER_ALLOW, depConstraints: forTests(production) },
  /**
   * The kit's database parts are entry points of projects the gateway may use (runtime, messaging),
   * so tags cannot tell them apart: `no-restricted-imports` refuses them in the gateway's files.
   */
  gatewayRestrictedImports: {
    paths: [
      { name: '@medfolio/runtime/service-kit', message: 'The gateway holds no database: the service kit (TypeORM, migrations) is for services.' },
      { name: '@medfolio/messaging/outbox', message: 'The gateway holds no database: the outbox and idempotent consumers are for services.' },
    ],
    patterns: [{ group: ['@medfolio/persistence', '@medfolio/persistence/*', '@medfolio/clinical', '@medfolio/clinical/*'], message: 'The gateway never imports persistence or clinical.' }],
  },
};
