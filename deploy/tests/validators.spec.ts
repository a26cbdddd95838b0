// The checking tools of this suite must be able to say no: each is shown a broken input here.
import { ALL_APPS_ON, named, render, type K8sObject } from './src/helm';
import { schemaErrors, unknownFieldErrors } from './src/k8s-schema';
import { allowed, external, pod, type NetworkPolicy } from './src/network';

const deployment = (): K8sObject =>
  structuredClone(named(render({ set: ALL_APPS_ON }), 'Deployment', 'medfolio-gateway'));

describe('schemaErrors (kubernetes-models)', () => {
  it('accepts a rendered Deployment', async () => {
    expect(await schemaErrors(deployment())).toEqual([]);
  });

  it('reports a wrong type and a missing required field', async () => {
    const broken = deployment() as K8sObject & { spec: { replicas: unknown; selector?: unknown } };
    broken.spec.replicas = 'two';
    expect((await schemaErrors(broken)).join()).toMatch(/replicas must be integer/);
    delete broken.spec.selector;
    broken.spec.replicas = 2;
    expect((await schemaErrors(broken)).join()).toMatch(/must have required property selector/);
  });

  it('reports an unknown kind', async () => {
    expect(await schemaErrors({ apiVersion: 'apps/v1', kind: 'Deploymint', metadata: { name: 'x' } })).toEqual([
      'Deploymint/x: unknown apiVersion/kind apps/v1 Deploymint',
    ]);
  });
});

describe('unknownFieldErrors (TypeScript excess-property check)', () => {
  it('reports a misspelt field deep inside an object', () => {
    const broken = deployment() as K8sObject & {
      spec: { template: { spec: { containers: Record<string, unknown>[] } } };
    };
    const container = broken.spec.template.spec.containers[0]!;
    container['securityContext'] = { ...(container['securityContext'] as object), readOnlyRootFileSystem: true };
    const errors = unknownFieldErrors([broken]);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(
      /^Deployment\/medfolio-gateway: .*readOnlyRootFileSystem.* does not exist in type 'ISecurityContext'/,
    );
  });
});

describe('the NetworkPolicy evaluator', () => {
  const a = pod('ns', { app: 'a' });
  const b = pod('ns', { app: 'b' });
  const policy = (spec: NetworkPolicy['spec']): NetworkPolicy => ({
    apiVersion: 'networking.k8s.io/v1',
    kind: 'NetworkPolicy',
    metadata: { name: 'p', namespace: 'ns' },
    spec,
  });

  it('allows everything when no policy selects the pods', () => {
    expect(allowed([], a, b, 80)).toBe(true);
  });

  it('denies what a selecting policy does not allow, in each direction', () => {
    const denyB = policy({ podSelector: { matchLabels: { app: 'b' } }, policyTypes: ['Ingress'] });
    expect(allowed([denyB], a, b, 80)).toBe(false);
    expect(allowed([denyB], b, a, 80)).toBe(true);
    const denyAEgress = policy({ podSelector: { matchLabels: { app: 'a' } }, policyTypes: ['Egress'] });
    expect(allowed([denyAEgress], a, b, 80)).toBe(false);
  });

  it('matches ports, protocols, selectors across namespaces, and ipBlocks with exceptions', () => {
    const rule = policy({
      podSelector: { matchLabels: { app: 'a' } },
      policyTypes: ['Egress'],
      egress: [
        {
          to: [
            {
              namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'db' } },
              podSelector: { matchLabels: { role: 'pg' } },
            },
          ],
          ports: [{ port: 5432, protocol: 'TCP' }],
        },
        { to: [{ ipBlock: { cidr: '0.0.0.0/0', except: ['10.0.0.0/8'] } }], ports: [{ port: 443 }] },
      ],
    });
    expect(allowed([rule], a, pod('db', { role: 'pg' }), 5432)).toBe(true);
    expect(allowed([rule], a, pod('db', { role: 'pg' }), 5432, 'UDP')).toBe(false);
    expect(allowed([rule], a, pod('db', { role: 'other' }), 5432)).toBe(false);
    expect(allowed([rule], a, pod('ns', { role: 'pg' }), 5432)).toBe(false);
    expect(allowed([rule], a, external('52.1.2.3'), 443)).toBe(true);
    expect(allowed([rule], a, external('10.1.2.3'), 443)).toBe(false);
    expect(allowed([rule], a, external('52.1.2.3'), 80)).toBe(false);
  });
});
