import path from 'node:path';
import { FsTree } from 'nx/src/generators/tree';
import serviceGenerator, { serviceNames } from './generator';

/** The generator run over this workspace in memory (FsTree writes nothing until flushed, which these tests never do). */
const root = path.resolve(__dirname, '../../../..');
const text = (tree: FsTree, file: string) => tree.read(file, 'utf-8') ?? '';

describe('service generator (in memory, over this workspace)', () => {
  it('makes the service and registers it everywhere a service must be known', async () => {
    const tree = new FsTree(root, false);
    await serviceGenerator(tree, { name: 'probe' });
    const changes = tree.listChanges().map((change) => `${change.type} ${change.path}`);
    expect(changes).toEqual(
      expect.arrayContaining([
        'CREATE apps/probe/project.json',
        'CREATE apps/probe/src/app.module.ts',
        'CREATE apps/probe/src/probe.int-spec.ts',
        'CREATE apps/probe/src/services/probe.service.spec.ts',
        'CREATE libs/contracts/src/probe.ts',
        'UPDATE tsconfig.base.json',
        'UPDATE apps/medfolio/src/services.ts',
        'UPDATE docker/compose.yaml',
        'UPDATE helm/medfolio/values.yaml',
        'UPDATE helm/medfolio/templates/_helpers.tpl',
      ]),
    );
    expect(changes.filter((change) => !change.includes(' apps/probe/') && !change.endsWith('libs/contracts/src/probe.ts'))).toHaveLength(9);
    expect(JSON.parse(text(tree, 'apps/probe/project.json')).tags).toEqual(['type:service', 'platform:server', 'scope:probe']);
    expect(text(tree, 'apps/medfolio/src/services.ts')).toMatch(/import \{ PROBE_SERVICE \} from '@medfolio\/probe-app';[\s\S]* {2}PROBE_SERVICE,\n\];/);
    expect(text(tree, 'libs/contracts/src/rpc-map.ts')).toMatch(/import type \{ ProbeRpc \} from '\.\/probe';[\s\S]*extends [^{]*, ProbeRpc \{\}/);
    expect(text(tree, 'libs/contracts/src/subjects.ts')).toMatch(/'probe'\] as const/);
    expect(text(tree, 'docker/compose.yaml')).toMatch(/\n {2}probe-migrate:\n[\s\S]*\n {2}probe:\n[\s\S]*GATEWAY_SERVICES: [a-z,]*,probe\n/);
    expect(text(tree, 'helm/medfolio/values.yaml')).toMatch(/\nprobe:\n {2}# -- Deploy the probe service\.\n {2}enabled: true\n/);
    expect(text(tree, 'helm/medfolio/templates/_helpers.tpl')).toContain(' billing probe notifications');
    expect(text(tree, 'helm/medfolio/values.schema.json')).toMatch(/"billing",\s+"probe",\s+"notifications"/);
    // A new block is the wallet's shape without the wallet's own settings.
    const block = /\nprobe:\n[\s\S]*?(?=\nnotifications:\n)/.exec(text(tree, 'helm/medfolio/values.yaml'))![0];
    expect(block).toContain('  secretEnv: []\n');
    expect(block).toContain('    allowFrom: []\n');
    expect(block).toContain('    extraEgress: []');
    expect(block).not.toMatch(/WALLET|gateway/);
    expect(block).toMatch(/\n {2}autoscaling:\n[^\n]*\n {4}enabled: false\n/);
  });

  it('switches on the chart block a planned service already has, and keeps its name listed once', async () => {
    const tree = new FsTree(root, false);
    // Every planned service has landed: plan one here (named in the contracts, its block off).
    const subjects = 'libs/contracts/src/subjects.ts';
    tree.write(subjects, text(tree, subjects).replace("'audit'] as const", "'audit', 'probe'] as const"));
    const values = 'helm/medfolio/values.yaml';
    tree.write(values, text(tree, values).replace('\nnotifications:\n', '\nprobe:\n  # -- Deploy the probe service (planned).\n  enabled: false\n  replicaCount: 1\n\nnotifications:\n'));
    await serviceGenerator(tree, { name: 'probe' });
    expect(text(tree, values)).toMatch(/\nprobe:\n {2}# -- Deploy the probe service[^\n]*\n {2}enabled: true\n {2}replicaCount: 1\n/);
    expect(tree.listChanges().map((change) => change.path)).not.toContain('helm/medfolio/values.schema.json');
    expect(text(tree, subjects).match(/'probe'/g)).toHaveLength(1);
  });

  it('refuses a name that cannot be a schema, a subject and a chart block, naming it', () => {
    for (const bad of ['Wallet', 'care-plans', 'x', '1st', 'a'.repeat(31)]) expect(() => serviceNames(bad)).toThrow(`"${bad}"`);
    expect(serviceNames('careplans')).toEqual({ name: 'careplans', className: 'Careplans', constantName: 'CAREPLANS', propertyName: 'careplans' });
  });

  it('writes nothing when a file it registers the service in has changed shape', async () => {
    const tree = new FsTree(root, false);
    tree.write('docker/compose.yaml', 'services: {}\n');
    await expect(serviceGenerator(tree, { name: 'probe' })).rejects.toThrow(/docker\/compose\.yaml: cannot find where to register/);
    expect(tree.listChanges().map((change) => change.path)).toEqual(['docker/compose.yaml']);
  });

  it('refuses a service that exists', async () => {
    await expect(serviceGenerator(new FsTree(root, false), { name: 'documents' })).rejects.toThrow('apps/documents already exists');
  });
});
