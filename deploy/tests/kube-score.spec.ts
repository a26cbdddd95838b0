// kube-score on the rendered chart: every finding is either fixed or an exception justified in
// kube-score.yaml.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { ALL_APPS_ON, DEPLOY_VALUES, renderManifest, type RenderOptions } from './src/helm';
import { tools } from './src/tools';

interface KubeScoreConfig {
  kubernetesVersion: string;
  enableOptionalTests: string[];
  ignoreContainerCpuLimit: { reason: string };
  ignoreTests: { test: string; reason: string; onlyFor?: string[] }[];
}

const config = parse(readFileSync(path.join(__dirname, 'kube-score.yaml'), 'utf8')) as KubeScoreConfig;

/** kube-score's findings at WARNING or CRITICAL level, one line each. */
function findings(input: string, valuesFile?: string): { lines: string[]; status: number } {
  const args = [
    'score',
    '-',
    '--output-format',
    'ci',
    '--kubernetes-version',
    config.kubernetesVersion,
    '--ignore-container-cpu-limit',
  ];
  for (const test of config.enableOptionalTests) args.push('--enable-optional-test', test);
  for (const { test, onlyFor } of config.ignoreTests) {
    if (!onlyFor || (valuesFile !== undefined && onlyFor.includes(valuesFile))) args.push('--ignore-test', test);
  }
  const result = spawnSync(tools()['kube-score'], args, { input, encoding: 'utf8' });
  if (result.error) throw result.error;
  const lines = result.stdout.split('\n').filter((line) => /^\[(CRITICAL|WARNING)\]/.test(line));
  return { lines, status: result.status ?? 1 };
}

describe('kube-score', () => {
  it('justifies every exception', () => {
    expect(config.ignoreContainerCpuLimit.reason.length).toBeGreaterThan(40);
    for (const exception of config.ignoreTests) expect(exception.reason.length).toBeGreaterThan(40);
  });

  it.each([
    ['default values', {}],
    ['default values with every service enabled', { set: ALL_APPS_ON }],
    ...DEPLOY_VALUES.map((file): [string, RenderOptions] => [
      `${file} with every service enabled`,
      { values: [file], set: ALL_APPS_ON },
    ]),
  ])('finds nothing wrong with %s', (_name, options: RenderOptions) => {
    const { lines, status } = findings(renderManifest(options), options.values?.[0]);
    expect(lines).toEqual([]);
    expect(status).toBe(0);
  });

  it('does find problems: a Deployment without probes, limits or security context fails', () => {
    const bad = `apiVersion: apps/v1
kind: Deployment
metadata: { name: bad, namespace: medfolio }
spec:
  replicas: 1
  selector: { matchLabels: { app: bad } }
  template:
    metadata: { labels: { app: bad } }
    spec:
      containers:
        - name: bad
          image: bad:latest
`;
    const { lines, status } = findings(bad);
    expect(lines.join('\n')).toMatch(/CRITICAL.*bad/);
    expect(status).not.toBe(0);
  });
});
