// NetworkPolicies: only the gateway is reachable from outside the release; each service reaches
// DNS, NATS, and PostgreSQL / S3 / other services only where it needs them. Checked by evaluating
// the rendered policies on concrete connections (src/network.ts).
import { ALL_APPS_ON, APPS, NAMESPACE, RELEASE, ofKind, render, type AppName, type RenderOptions } from './src/helm';
import { allowed, external, pod, type Endpoint, type NetworkPolicy } from './src/network';

const labelsOf = (name: AppName | 'migrations'): Record<string, string> => ({
  'app.kubernetes.io/name': 'medfolio',
  'app.kubernetes.io/instance': RELEASE,
  'app.kubernetes.io/component': name,
});
const app = (name: AppName | 'migrations'): Endpoint => pod(NAMESPACE, labelsOf(name));

const ingressController = pod('ingress-nginx', { 'app.kubernetes.io/name': 'ingress-nginx' });
const prometheus = pod('monitoring', { 'app.kubernetes.io/name': 'prometheus' });
const otherPod = pod('other', { app: 'other' });
const neighbourInNamespace = pod(NAMESPACE, { app: 'something-else' });
const natsServer = pod('nats', { 'app.kubernetes.io/name': 'nats', 'app.kubernetes.io/component': 'nats' });
const natsBox = pod('nats', { 'app.kubernetes.io/name': 'nats', 'app.kubernetes.io/component': 'nats-box' });
const postgres = pod(NAMESPACE, { 'cnpg.io/cluster': 'medfolio-db' });
const kubeDns = pod('kube-system', { 'k8s-app': 'kube-dns' });
const internet = external('52.95.110.1');
const privateAddress = external('10.20.30.40');

const HTTP = 3000;
const DATABASE_APPS: AppName[] = ['audit', 'identity', 'documents', 'summary', 'wallet', 'billing', 'notifications', 'connections'];
const S3_APPS: AppName[] = ['gateway', 'identity', 'documents', 'summary', 'wallet'];

function policies(options: RenderOptions): NetworkPolicy[] {
  return ofKind<NetworkPolicy>(render(options), 'NetworkPolicy');
}

describe.each([
  ['default values', { set: ALL_APPS_ON }],
  ['deploy/values-prod.yaml', { values: ['deploy/values-prod.yaml'], set: ALL_APPS_ON }],
  ['deploy/values-staging.yaml', { values: ['deploy/values-staging.yaml'], set: ALL_APPS_ON }],
  ['deploy/values-dev.yaml', { values: ['deploy/values-dev.yaml'], set: ALL_APPS_ON }],
])('NetworkPolicies with %s and every service enabled', (_name, options: RenderOptions) => {
  const p = () => policies(options);

  it('isolates every pod of the release in both directions', () => {
    for (const name of [...APPS, 'migrations' as const]) {
      const selecting = p().filter(
        (policy) =>
          Object.entries(policy.spec.podSelector.matchLabels ?? {}).every(
            ([key, value]) => labelsOf(name)[key] === value,
          ) &&
          (policy.spec.policyTypes ?? []).includes('Ingress') &&
          (policy.spec.policyTypes ?? []).includes('Egress'),
      );
      expect(selecting.length).toBeGreaterThan(0);
    }
  });

  it('lets the ingress controller reach the gateway, and nothing else of the release', () => {
    expect(allowed(p(), ingressController, app('gateway'), HTTP)).toBe(true);
    for (const name of APPS.filter((a) => a !== 'gateway')) {
      expect(allowed(p(), ingressController, app(name), HTTP)).toBe(false);
      expect(allowed(p(), internet, app(name), HTTP)).toBe(false);
      expect(allowed(p(), otherPod, app(name), HTTP)).toBe(false);
      expect(allowed(p(), neighbourInNamespace, app(name), HTTP)).toBe(false);
    }
    expect(allowed(p(), ingressController, app('gateway'), 9229)).toBe(false);
  });

  it('lets only the gateway call identity (token keys, pictures), documents (uploads) and wallet (pass downloads), and summary and connections call documents, over HTTP; nothing else', () => {
    expect(allowed(p(), app('gateway'), app('identity'), HTTP)).toBe(true);
    expect(allowed(p(), app('gateway'), app('documents'), HTTP)).toBe(true);
    expect(allowed(p(), app('gateway'), app('wallet'), HTTP)).toBe(true);
    expect(allowed(p(), app('summary'), app('documents'), HTTP)).toBe(true);
    expect(allowed(p(), app('connections'), app('documents'), HTTP)).toBe(true);
    for (const from of APPS) {
      for (const to of APPS) {
        if (from === to || (from === 'gateway' && (to === 'identity' || to === 'documents' || to === 'wallet')) || ((from === 'summary' || from === 'connections') && to === 'documents')) continue;
        expect([from, to, allowed(p(), app(from), app(to), HTTP)]).toEqual([from, to, false]);
      }
    }
  });

  it('lets every application resolve names and reach NATS clients port, not its cluster or monitor ports', () => {
    for (const name of APPS) {
      expect(allowed(p(), app(name), kubeDns, 53, 'UDP')).toBe(true);
      expect(allowed(p(), app(name), kubeDns, 53, 'TCP')).toBe(true);
      expect(allowed(p(), app(name), natsServer, 4222)).toBe(true);
      expect(allowed(p(), app(name), natsServer, 6222)).toBe(false);
      expect(allowed(p(), app(name), natsServer, 8222)).toBe(false);
    }
  });

  it('lets only the services with a database reach PostgreSQL', () => {
    for (const name of APPS) {
      expect([name, allowed(p(), app(name), postgres, 5432)]).toEqual([name, DATABASE_APPS.includes(name)]);
    }
  });

  it('lets the migration Jobs reach PostgreSQL and nothing else', () => {
    expect(allowed(p(), app('migrations'), postgres, 5432)).toBe(true);
    expect(allowed(p(), app('migrations'), kubeDns, 53, 'UDP')).toBe(true);
    expect(allowed(p(), app('migrations'), natsServer, 4222)).toBe(false);
    expect(allowed(p(), app('migrations'), internet, 443)).toBe(false);
    expect(allowed(p(), app('migrations'), app('gateway'), HTTP)).toBe(false);
    expect(allowed(p(), otherPod, app('migrations'), HTTP)).toBe(false);
  });

  it('lets no application reach an arbitrary port anywhere', () => {
    for (const name of APPS) {
      expect(allowed(p(), app(name), internet, 22)).toBe(false);
      expect(allowed(p(), app(name), otherPod, 8080)).toBe(false);
      expect(allowed(p(), app(name), privateAddress, 6379)).toBe(false);
    }
  });
});

describe('NetworkPolicies narrowed in production', () => {
  const p = () => policies({ values: ['deploy/values-prod.yaml'], set: ALL_APPS_ON });

  it('admits traffic to the gateway only from the ingress controller namespace', () => {
    expect(allowed(p(), ingressController, app('gateway'), HTTP)).toBe(true);
    expect(allowed(p(), otherPod, app('gateway'), HTTP)).toBe(false);
    expect(allowed(p(), internet, app('gateway'), HTTP)).toBe(false);
  });

  it('lets Prometheus scrape every application, and no other namespace', () => {
    for (const name of APPS) {
      expect(allowed(p(), prometheus, app(name), HTTP)).toBe(true);
      expect(allowed(p(), otherPod, app(name), HTTP)).toBe(false);
    }
  });

  it('sends NATS traffic only to the NATS servers and PostgreSQL traffic only to the database pods', () => {
    expect(allowed(p(), app('audit'), natsServer, 4222)).toBe(true);
    expect(allowed(p(), app('audit'), natsBox, 4222)).toBe(false);
    expect(allowed(p(), app('audit'), otherPod, 4222)).toBe(false);
    expect(allowed(p(), app('audit'), otherPod, 5432)).toBe(false);
    expect(allowed(p(), app('audit'), privateAddress, 5432)).toBe(false);
  });

  it('lets the S3 users reach public HTTPS endpoints, never private addresses', () => {
    for (const name of APPS) {
      const expected = S3_APPS.includes(name) || name === 'billing' || name === 'summary' || name === 'connections';
      expect([name, allowed(p(), app(name), internet, 443)]).toEqual([name, expected]);
    }
    expect(allowed(p(), app('documents'), privateAddress, 443)).toBe(false);
  });

  it('lets only the gateway reach Redis', () => {
    const redis = pod('redis', { 'app.kubernetes.io/name': 'redis' });
    for (const name of APPS) {
      expect([name, allowed(p(), app(name), redis, 6379)]).toEqual([name, name === 'gateway']);
    }
    expect(allowed(p(), app('gateway'), otherPod, 6379)).toBe(false);
  });

  it('lets notifications reach an SMTP relay and no one else', () => {
    for (const name of APPS) {
      expect([name, allowed(p(), app(name), internet, 587)]).toEqual([name, name === 'notifications']);
    }
    // Production keeps only the submission port, and no private address.
    expect(allowed(p(), app('notifications'), internet, 465)).toBe(false);
    expect(allowed(p(), app('notifications'), internet, 25)).toBe(false);
    expect(allowed(p(), app('notifications'), privateAddress, 587)).toBe(false);
  });
});

describe('NetworkPolicies of identity and notifications with the default values', () => {
  const p = () => policies({});

  it('let the gateway reach identity (token keys, picture uploads), and no other application or outsider', () => {
    expect(allowed(p(), app('gateway'), app('identity'), HTTP)).toBe(true);
    for (const from of ['audit', 'notifications'] as const) {
      expect([from, allowed(p(), app(from), app('identity'), HTTP)]).toEqual([from, false]);
    }
    expect(allowed(p(), app('identity'), app('gateway'), HTTP)).toBe(false);
    expect(allowed(p(), app('notifications'), app('gateway'), HTTP)).toBe(false);
    expect(allowed(p(), app('gateway'), app('notifications'), HTTP)).toBe(false);
    expect(allowed(p(), ingressController, app('identity'), HTTP)).toBe(false);
    expect(allowed(p(), neighbourInNamespace, app('identity'), HTTP)).toBe(false);
    expect(allowed(p(), app('gateway'), app('identity'), 9229)).toBe(false);
  });

  it('let identity and notifications reach DNS, NATS and PostgreSQL', () => {
    for (const name of ['identity', 'notifications'] as const) {
      expect(allowed(p(), app(name), kubeDns, 53, 'UDP')).toBe(true);
      expect(allowed(p(), app(name), natsServer, 4222)).toBe(true);
      expect(allowed(p(), app(name), postgres, 5432)).toBe(true);
    }
  });

  it('let notifications, and only notifications, reach the SMTP ports', () => {
    for (const port of [587, 465]) {
      for (const name of ['gateway', 'audit', 'identity', 'notifications'] as const) {
        expect([name, port, allowed(p(), app(name), internet, port)]).toEqual([name, port, name === 'notifications']);
      }
    }
    expect(allowed(p(), app('notifications'), internet, 443)).toBe(false);
    expect(allowed(p(), app('notifications'), internet, 2525)).toBe(false);
  });

  it('let identity reach S3 over HTTPS', () => {
    expect(allowed(p(), app('identity'), internet, 443)).toBe(true);
    expect(allowed(p(), app('audit'), internet, 443)).toBe(false);
  });
});

describe('NetworkPolicies for SMTP and Google sign-in, narrowed', () => {
  const relay = external('198.51.100.7');
  const elsewhere = external('203.0.113.9');
  const s3Endpoint = external('52.95.110.1');
  const googleApi = external('142.250.74.10');
  const narrowed = (extra: string[] = []): RenderOptions => ({
    setJson: [
      'networkPolicy.smtp.to=[{"ipBlock":{"cidr":"198.51.100.0/24"}}]',
      'networkPolicy.smtp.ports=[2525]',
      'networkPolicy.s3.to=[{"ipBlock":{"cidr":"52.95.0.0/16"}}]',
      'networkPolicy.google.to=[{"ipBlock":{"cidr":"142.250.0.0/15"}}]',
    ],
    set: extra,
  });

  it('send mail only to the configured relay CIDR and port', () => {
    const p = policies(narrowed());
    expect(allowed(p, app('notifications'), relay, 2525)).toBe(true);
    expect(allowed(p, app('notifications'), relay, 587)).toBe(false);
    expect(allowed(p, app('notifications'), elsewhere, 2525)).toBe(false);
    expect(allowed(p, app('identity'), relay, 2525)).toBe(false);
  });

  it("open Google's HTTPS endpoints to identity only while Google sign-in is configured", () => {
    const off = policies(narrowed());
    expect(allowed(off, app('identity'), googleApi, 443)).toBe(false);
    expect(allowed(off, app('identity'), s3Endpoint, 443)).toBe(true);
    const on = policies(narrowed(['identity.google.clientIds=123-abc.apps.googleusercontent.com']));
    expect(allowed(on, app('identity'), googleApi, 443)).toBe(true);
    expect(allowed(on, app('identity'), googleApi, 80)).toBe(false);
    expect(allowed(on, app('identity'), elsewhere, 443)).toBe(false);
    for (const name of ['gateway', 'audit', 'notifications'] as const) {
      expect([name, allowed(on, app(name), googleApi, 443)]).toEqual([name, false]);
    }
  });

  it('reach an in-cluster Mailpit in development', () => {
    const p = policies({ values: ['deploy/values-dev.yaml'] });
    const mailpit = pod(NAMESPACE, { 'app.kubernetes.io/name': 'mailpit' });
    expect(allowed(p, app('notifications'), mailpit, 1025)).toBe(true);
    expect(allowed(p, app('notifications'), neighbourInNamespace, 1025)).toBe(false);
    expect(allowed(p, app('notifications'), internet, 587)).toBe(false);
    expect(allowed(p, app('audit'), mailpit, 1025)).toBe(false);
  });
});

describe('NetworkPolicies by default', () => {
  it('open the gateway to any source on its HTTP port only', () => {
    const p = policies({});
    expect(allowed(p, otherPod, app('gateway'), HTTP)).toBe(true);
    expect(allowed(p, internet, app('gateway'), HTTP)).toBe(true);
    expect(allowed(p, internet, app('gateway'), 22)).toBe(false);
  });

  it('are not rendered when networkPolicy.enabled is false', () => {
    expect(policies({ set: ['networkPolicy.enabled=false'] })).toEqual([]);
  });

  it('leave out disabled services', () => {
    const names = policies({}).map((policy) => policy.metadata.name);
    expect(names.sort()).toEqual([
      `${RELEASE}-audit`,
      `${RELEASE}-billing`,
      `${RELEASE}-connections`,
      `${RELEASE}-default-deny`,
      `${RELEASE}-documents`,
      `${RELEASE}-gateway`,
      `${RELEASE}-identity`,
      `${RELEASE}-migrations`,
      `${RELEASE}-notifications`,
      `${RELEASE}-summary`,
      `${RELEASE}-wallet`,
    ]);
    expect(
      policies({ set: ['identity.enabled=false', 'notifications.enabled=false'] }).map((x) => x.metadata.name),
    ).not.toContain(`${RELEASE}-identity`);
  });
});

describe('NetworkPolicies of connections: the EHRs on 443, nothing private', () => {
  const ehr = external('52.95.110.1');
  const metadata = external('169.254.169.254');
  const carrierNat = external('100.64.3.4');
  const loopback = external('127.0.0.1');
  const privateRanges = [external('10.20.30.40'), external('172.20.1.1'), external('192.168.1.10')];

  it.each([
    ['default values', {}],
    ['deploy/values-prod.yaml', { values: ['deploy/values-prod.yaml'] }],
    ['deploy/values-staging.yaml', { values: ['deploy/values-staging.yaml'] }],
    ['deploy/values-dev.yaml', { values: ['deploy/values-dev.yaml'] }],
  ])('with %s: connections reaches public addresses on 443 only, never private, link-local or loopback ones', (_name, options: RenderOptions) => {
    const p = policies(options);
    expect(allowed(p, app('connections'), ehr, 443)).toBe(true);
    expect(allowed(p, app('connections'), ehr, 80)).toBe(false);
    expect(allowed(p, app('connections'), ehr, 8443)).toBe(false);
    for (const address of [metadata, carrierNat, loopback, ...privateRanges])
      expect([address, allowed(p, app('connections'), address, 443)]).toEqual([address, false]);
    // Inside the cluster: documents' HTTP port only, no other pod's.
    expect(allowed(p, app('connections'), app('documents'), HTTP)).toBe(true);
    expect(allowed(p, app('connections'), otherPod, 443)).toBe(false);
    expect(allowed(p, app('connections'), neighbourInNamespace, 443)).toBe(false);
    expect(allowed(p, app('connections'), app('identity'), HTTP)).toBe(false);
    // Nothing calls connections over HTTP (the gateway reaches it over NATS).
    for (const from of APPS.filter((a) => a !== 'connections'))
      expect([from, allowed(p, app(from), app('connections'), HTTP)]).toEqual([from, false]);
    expect(allowed(p, ingressController, app('connections'), HTTP)).toBe(false);
  });

  it('leaves the egress of the other services as it was: the EHR rule is connections\' alone', () => {
    const p = policies({ values: ['deploy/values-prod.yaml'], set: ALL_APPS_ON });
    const egressOf = (name: AppName) =>
      p.find((policy) => policy.metadata.name === `${RELEASE}-${name}`)!.spec.egress!;
    const ehrRule = egressOf('connections').find((rule) => rule.to?.some((peer) => peer.ipBlock?.except?.includes('169.254.0.0/16')));
    expect(ehrRule).toBeDefined();
    for (const name of APPS.filter((a) => a !== 'connections'))
      expect([name, egressOf(name).some((rule) => JSON.stringify(rule) === JSON.stringify(ehrRule))]).toEqual([name, false]);
    // audit and notifications still reach nothing on 443.
    expect(allowed(p, app('audit'), ehr, 443)).toBe(false);
    expect(allowed(p, app('notifications'), ehr, 443)).toBe(false);
  });

  it('narrows to configured CIDRs and ports', () => {
    const p = policies({
      setJson: ['networkPolicy.ehr.to=[{"ipBlock":{"cidr":"203.0.113.0/24"}}]', 'networkPolicy.ehr.ports=[443,8443]'],
    });
    expect(allowed(p, app('connections'), external('203.0.113.20'), 443)).toBe(true);
    expect(allowed(p, app('connections'), external('203.0.113.20'), 8443)).toBe(true);
    expect(allowed(p, app('connections'), ehr, 443)).toBe(false);
    expect(allowed(p, app('summary'), external('203.0.113.20'), 8443)).toBe(false);
  });

  it('is not rendered while connections is disabled', () => {
    const names = policies({ set: ['connections.enabled=false'] }).map((policy) => policy.metadata.name);
    expect(names).not.toContain(`${RELEASE}-connections`);
    const documents = policies({ set: ['connections.enabled=false'] }).find((policy) => policy.metadata.name === `${RELEASE}-documents`)!;
    expect(JSON.stringify(documents.spec.ingress)).not.toContain('connections');
  });
});
