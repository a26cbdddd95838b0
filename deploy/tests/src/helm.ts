// Renders helm/medfolio with `helm template` and parses the result into Kubernetes objects.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { parseAllDocuments } from 'yaml';
import { repoRoot, tools } from './tools';

export const chartDir = path.join(repoRoot, 'helm', 'medfolio');
export const RELEASE = 'medfolio';
export const NAMESPACE = 'medfolio';
/**
 * Kubernetes version the chart is rendered and checked for: the newest that kubernetes-models
 * (the schema validator) describes. A helm built with `go install` would otherwise assume v1.20.
 */
export const KUBE_VERSION = '1.34.0';
/** The oldest version Chart.yaml accepts (kubeVersion: >=1.27.0-0). */
export const OLDEST_KUBE_VERSION = '1.27.0';

/** The values files of deploy/, relative to the repository root. */
export const DEPLOY_VALUES = ['deploy/values-dev.yaml', 'deploy/values-staging.yaml', 'deploy/values-prod.yaml'];

/** Every application of the chart, in values.yaml order. */
export const APPS = [
  'gateway',
  'audit',
  'identity',
  'documents',
  'summary',
  'wallet',
  'billing',
  'notifications',
  'connections',
] as const;
export type AppName = (typeof APPS)[number];
/** `--set` arguments that enable every application. */
export const ALL_APPS_ON = APPS.map((app) => `${app}.enabled=true`);

export interface K8sObject {
  apiVersion: string;
  kind: string;
  metadata: {
    name: string;
    namespace?: string;
    labels?: Record<string, string>;
    annotations?: Record<string, string>;
  };
  [field: string]: unknown;
}

export interface RenderOptions {
  /** Values files, relative to the repository root. */
  values?: string[];
  /** `--set key=value` arguments. */
  set?: string[];
  /** `--set-json key=json` arguments. */
  setJson?: string[];
  kubeVersion?: string;
}

export interface HelmResult {
  status: number;
  stdout: string;
  stderr: string;
}

export function runHelm(args: string[]): HelmResult {
  const result = spawnSync(tools().helm, args, {
    cwd: repoRoot,
    encoding: 'utf8',
    env: { ...process.env, HELM_NO_PLUGINS: '1' },
  });
  if (result.error) throw result.error;
  return { status: result.status ?? 1, stdout: result.stdout, stderr: result.stderr };
}

function valueArgs(options: RenderOptions): string[] {
  return [
    ...(options.values ?? []).flatMap((file) => ['--values', path.join(repoRoot, file)]),
    ...(options.set ?? []).flatMap((pair) => ['--set', pair]),
    ...(options.setJson ?? []).flatMap((pair) => ['--set-json', pair]),
  ];
}

function templateArgs(options: RenderOptions): string[] {
  return [
    'template',
    RELEASE,
    chartDir,
    '--namespace',
    NAMESPACE,
    '--kube-version',
    options.kubeVersion ?? KUBE_VERSION,
    ...valueArgs(options),
  ];
}

function parseObjects(manifest: string): K8sObject[] {
  return parseAllDocuments(manifest)
    .map((doc) => {
      const [error] = doc.errors;
      if (error) throw new Error(`helm rendered invalid YAML: ${error.message}`);
      return doc.toJS() as K8sObject | null;
    })
    .filter((object): object is K8sObject => object !== null);
}

/** The YAML `helm template` prints; throws with helm's message on failure. */
export function renderManifest(options: RenderOptions = {}): string {
  const result = runHelm(templateArgs(options));
  if (result.status !== 0) throw new Error(`helm template failed:\n${result.stderr}`);
  return result.stdout;
}

const renders = new Map<string, K8sObject[]>();

/** The objects `helm template` renders (cached per options); throws with helm's message on failure. */
export function render(options: RenderOptions = {}): K8sObject[] {
  const key = JSON.stringify(options);
  const cached = renders.get(key);
  if (cached) return cached;
  const objects = parseObjects(renderManifest(options));
  renders.set(key, objects);
  return objects;
}

/** helm's error message for values that must be refused; fails if the render succeeds. */
export function renderError(options: RenderOptions): string {
  const result = runHelm(templateArgs(options));
  if (result.status === 0)
    throw new Error(`helm template accepted values it should refuse: ${JSON.stringify(options)}`);
  return result.stderr;
}

export function lint(options: RenderOptions = {}): HelmResult {
  return runHelm([
    'lint',
    chartDir,
    '--strict',
    '--namespace',
    NAMESPACE,
    '--kube-version',
    options.kubeVersion ?? KUBE_VERSION,
    ...valueArgs(options),
  ]);
}

export function ofKind<T = K8sObject>(objects: K8sObject[], kind: string): T[] {
  return objects.filter((object) => object.kind === kind) as unknown as T[];
}

export function named<T = K8sObject>(objects: K8sObject[], kind: string, name: string): T {
  const found = objects.find((object) => object.kind === kind && object.metadata.name === name);
  if (!found)
    throw new Error(`no ${kind} ${name} among: ${objects.map((o) => `${o.kind}/${o.metadata.name}`).join(', ')}`);
  return found as unknown as T;
}

/** Objects that are Helm hooks (the migrations) rather than part of the release. */
export function isHook(object: K8sObject): boolean {
  return Boolean(object.metadata.annotations?.['helm.sh/hook']);
}
