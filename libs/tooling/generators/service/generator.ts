import * as path from 'node:path';
import { generateFiles, names, updateJson, type Tree } from '@nx/devkit';

export interface ServiceGeneratorOptions {
  name: string;
}

/** The names one service goes by: `care` → Care, CARE, care. */
export interface ServiceNames {
  name: string;
  className: string;
  constantName: string;
  propertyName: string;
}

const NAME = /^[a-z][a-z0-9]{1,29}$/;

/** The templates, found from the workspace root (Nx may load this file as an ES module, without __dirname). */
const TEMPLATES = (tree: Tree) => path.join(tree.root, 'libs/tooling/generators/service/files');

export function serviceNames(name: string): ServiceNames {
  if (!NAME.test(name)) {
    throw new Error(`"${name}" cannot name a service: use one lowercase word (a letter, then letters or digits, 2 to 30 in all), e.g. wallet`);
  }
  const n = names(name);
  return { name, className: n.className, constantName: n.constantName, propertyName: n.propertyName };
}

/**
 * `nx g @medfolio/tooling:service <name>`: a complete service in apps/<name> (module, typed config,
 * controller, service, repository, entity, migration, a unit and an integration test, Jest configs,
 * project.json with tags), its contracts (subjects, DTOs, its part of the request/reply map), and
 * its registration everywhere a service must be known: tsconfig path, SERVICE_NAMES, the
 * one-process launcher's list, docker compose, the Helm chart. Every edit outside apps/<name> is
 * checked first, so a workspace it does not recognise gets an error and no half-made service.
 */
export default async function serviceGenerator(tree: Tree, options: ServiceGeneratorOptions): Promise<() => void> {
  const n = serviceNames(options.name);
  if (tree.exists(`apps/${n.name}`)) throw new Error(`apps/${n.name} already exists`);
  if (tree.exists(`libs/contracts/src/${n.name}.ts`)) throw new Error(`libs/contracts/src/${n.name}.ts already exists`);
  // Plan every edit before writing anything (Nx writes the tree only when the generator succeeds).
  const edits = [addTsconfigPath, addContracts, addServiceName, addLauncherEntry, addCompose, addChart].map((edit) => edit(tree, n));
  const substitutions = { ...n, timestamp: String(Date.now()), tmpl: '' };
  generateFiles(tree, path.join(TEMPLATES(tree), 'app'), `apps/${n.name}`, substitutions);
  generateFiles(tree, path.join(TEMPLATES(tree), 'contracts'), 'libs/contracts/src', substitutions);
  for (const apply of edits) apply();
  return () => {
    process.stdout.write(
      `\n${n.name}: made apps/${n.name} and libs/contracts/src/${n.name}.ts, and registered it (launcher, compose, chart).\n` +
        `Next: npm run test:unit ${n.name} && npm run test:int ${n.name}; then the checklist in docs/architecture.md, "Add a service".\n`,
    );
  };
}

type Edit = (tree: Tree, n: ServiceNames) => () => void;

function read(tree: Tree, file: string): string {
  const text = tree.read(file, 'utf-8');
  if (text === null) throw new Error(`${file} is missing: is this the Medfolio workspace?`);
  return text;
}

/**
 * Replaces `anchor` once in `file`. The anchor is looked for now (so a workspace the generator does
 * not recognise fails before anything is written) and again when applied, after earlier edits.
 */
function insertion(tree: Tree, file: string, anchor: RegExp, replace: (match: string) => string): () => void {
  const find = (text: string) => {
    const match = anchor.exec(text);
    if (!match) throw new Error(`${file}: cannot find where to register the service (${anchor.source}); the generator needs updating`);
    return match;
  };
  find(read(tree, file));
  return () => {
    const text = read(tree, file);
    const match = find(text);
    tree.write(file, text.slice(0, match.index) + replace(match[0]) + text.slice(match.index + match[0].length));
  };
}

const addTsconfigPath: Edit = (tree, n) => {
  read(tree, 'tsconfig.base.json');
  return () =>
    updateJson(tree, 'tsconfig.base.json', (json: { compilerOptions: { paths: Record<string, string[]> } }) => {
      const paths = { ...json.compilerOptions.paths, [`@medfolio/${n.name}-app`]: [`./apps/${n.name}/src/index.ts`] };
      json.compilerOptions.paths = Object.fromEntries(Object.entries(paths).sort(([a], [b]) => a.localeCompare(b)));
      return json;
    });
};

const addContracts: Edit = (tree, n) => {
  const exportLine = insertion(tree, 'libs/contracts/src/index.ts', /export \* from '\.\/rpc-map';\n/, (m) => `export * from './${n.name}';\n${m}`);
  const importLine = insertion(tree, 'libs/contracts/src/rpc-map.ts', /import (type )?\{[^}]*\} from '\.\/subjects';\n/, (m) => `${m}import type { ${n.className}Rpc } from './${n.name}';\n`);
  const extendsList = insertion(tree, 'libs/contracts/src/rpc-map.ts', /export interface RpcMap extends ([^{]*)\{\}/, (m) => m.replace(/\s*\{\}$/, `, ${n.className}Rpc {}`));
  return () => [exportLine, importLine, extendsList].forEach((apply) => apply());
};

const addServiceName: Edit = (tree, n) => {
  const file = 'libs/contracts/src/subjects.ts';
  const list = /export const SERVICE_NAMES = \[([^\]]*)\] as const;/.exec(read(tree, file))?.[1];
  if (list === undefined) throw new Error(`${file}: cannot find SERVICE_NAMES`);
  // summary, wallet and billing are named already (the contracts know the planned services).
  if (list.includes(`'${n.name}'`)) return () => undefined;
  return insertion(tree, file, /export const SERVICE_NAMES = \[([^\]]*)\] as const;/, (m) => m.replace('] as const', `, '${n.name}'] as const`));
};

const addLauncherEntry: Edit = (tree, n) => {
  const file = 'apps/medfolio/src/services.ts';
  const imports = insertion(tree, file, /import \{ NOTIFICATIONS_SERVICE \} from '@medfolio\/notifications-app';\n/, (m) => `${m}import { ${n.constantName}_SERVICE } from '@medfolio/${n.name}-app';\n`);
  const entry = insertion(tree, file, /\n\];\n/, () => `\n  ${n.constantName}_SERVICE,\n];\n`);
  return () => [imports, entry].forEach((apply) => apply());
};

const addCompose: Edit = (tree, n) => {
  const file = 'docker/compose.yaml';
  const block = (suffix: string, extra: string) =>
    `  ${n.name}${suffix}:\n    <<: *app\n    build:\n      <<: *build\n      args:\n        APP: ${n.name}\n    image: medfolio/${n.name}:dev\n${extra}`;
  const services =
    block('-migrate', `    command: ['migrate']\n    environment:\n      <<: *app-env\n    depends_on: *infra-ready\n    healthcheck:\n      disable: true\n    restart: 'no'\n\n`) +
    block('', `    environment:\n      <<: *app-env\n    depends_on:\n      <<: *infra-ready\n      ${n.name}-migrate:\n        condition: service_completed_successfully\n\n`);
  const before = insertion(tree, file, /\n {2}gateway:\n/, (m) => `\n${services}${m.slice(1)}`);
  const health = insertion(tree, file, /GATEWAY_SERVICES: ([a-z0-9,]+)\n/, (m) => m.replace(/\n$/, `,${n.name}\n`));
  const dependsOn = insertion(tree, file, /\n {6}notifications:\n {8}condition: service_healthy\n/, (m) => `${m}      ${n.name}:\n        condition: service_healthy\n`);
  return () => [before, health, dependsOn].forEach((apply) => apply());
};

/**
 * The chart: summary, wallet and billing have blocks already (off until their code lands), so the
 * generator switches the block on; any other name gets a block like theirs, its schema entry, and
 * its place in the chart's list of applications.
 */
/** The settings every application has in the chart (the rest of the wallet's block is its own: passes, APNs, Google Wallet). */
const APP_SETTINGS = new Set(['enabled', 'replicaCount', 'image', 'resources', 'env', 'extraEnv', 'secretEnv', 'existingSecret', 'database', 's3', 'autoscaling', 'podDisruptionBudget', 'networkPolicy']);

/** The block without the settings of its own service: each top-level setting goes with the comment lines above it. */
function onlyAppSettings(block: string): string {
  const [head, ...lines] = block.replace(/^\n/, '').split('\n');
  const kept: string[] = [];
  let pending: string[] = [];
  let keep = true;
  for (const line of lines) {
    if (/^ {2}#/.test(line)) {
      pending.push(line);
      continue;
    }
    const key = /^ {2}([A-Za-z][A-Za-z0-9]*):/.exec(line)?.[1];
    if (key !== undefined) keep = APP_SETTINGS.has(key);
    if (keep) kept.push(...pending, line);
    pending = [];
  }
  return `\n${[head, ...kept, ...pending].join('\n')}`;
}

const addChart: Edit = (tree, n) => {
  const values = 'helm/medfolio/values.yaml';
  const text = read(tree, values);
  const existing = new RegExp(`\\n${n.name}:\\n  # -- Deploy the ${n.name} service[^\\n]*\\n  enabled: false\\n`);
  if (existing.test(text)) {
    return insertion(tree, values, existing, (m) => m.replace('enabled: false', 'enabled: true'));
  }
  const template = /\nwallet:\n([\s\S]*?)(?=\n[a-z][A-Za-z]*:\n)/.exec(text);
  if (!template) throw new Error(`${values}: cannot find the wallet block to copy`);
  const block = onlyAppSettings(template[0])
    .replace(/\nwallet:\n/, `\n${n.name}:\n`)
    .replace(/# -- Deploy the wallet service[^\n]*/, `# -- Deploy the ${n.name} service.`)
    .replace(/\n {2}enabled: false\n/, '\n  enabled: true\n')
    .replace(/Repository\. Empty: wallet\./, `Repository. Empty: ${n.name}.`)
    // The wallet's own settings (its certificates, S3, the gateway's calls, APNs) are not a new service's.
    .replace(/\n {2}# -- Extra plain environment variables\.[^\n]*(?:\n {2}#[^\n]*)*\n {2}env: \{\}/, '\n  # -- Extra plain environment variables.\n  env: {}')
    .replace(/\n {2}# -- Variables read from the application Secret[^\n]*(?:\n {2}#[^\n]*)*\n {2}secretEnv:(?: \[\]|(?:\n {4}- [A-Z0-9_]+)+)/, '\n  # -- Variables read from the application Secret.\n  secretEnv: []')
    .replace(/\n {4}# -- Uses S3[^\n]*\n {4}enabled: (?:true|false)/, '\n    # -- Uses S3.\n    enabled: false')
    .replace(/\n {4}# -- Services allowed to call this service over HTTP[^\n]*\n {4}allowFrom:(?: \[\]|(?:\n {6}- [a-z]+)+)/, '\n    # -- Services allowed to call this service over HTTP.\n    allowFrom: []')
    .replace(/\n {4}# -- Extra egress rules[^\n]*\n {4}extraEgress:(?: \[\]|(?:\n {6}[^\n]*)+)/, '\n    # -- Extra egress rules.\n    extraEgress: []');
  const addValues = insertion(tree, values, /\nnotifications:\n/, (m) => `${block}\n${m}`);
  const schema = 'helm/medfolio/values.schema.json';
  const schemaEntry = insertion(tree, schema, /\n {4}"notifications": \{\n {6}"\$ref"/, (m) => `\n    "${n.name}": {\n      "$ref": "#/definitions/app"\n    },${m}`);
  const required = insertion(tree, schema, /\n {4}"notifications",?\n/, (m) => `\n    "${n.name}",${m}`);
  const schemaText = read(tree, schema);
  // The list of names, on one line or one name a line (as prettier wraps it).
  const names = /"billing",(\s+)"notifications"/g;
  const enums = () => tree.write(schema, read(tree, schema).replace(names, (_m, space: string) => `"billing",${space}"${n.name}",${space}"notifications"`));
  if (!names.test(schemaText)) throw new Error(`${schema}: cannot find the list of application names`);
  const helpers = insertion(tree, 'helm/medfolio/templates/_helpers.tpl', /\ngateway audit identity documents summary wallet billing notifications[a-z ]*\n/, (m) => m.replace(' notifications', ` ${n.name} notifications`));
  return () => [addValues, schemaEntry, required, enums, helpers].forEach((apply) => apply());
};
