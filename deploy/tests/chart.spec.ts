// helm/medfolio: lint, render with every values file, validate against the Kubernetes schemas,
// and check what the chart promises (security, probes, disruption budgets, hooks, wiring).
import {
  ALL_APPS_ON,
  APPS,
  DEPLOY_VALUES,
  OLDEST_KUBE_VERSION,
  RELEASE,
  isHook,
  lint,
  named,
  ofKind,
  render,
  renderError,
  type K8sObject,
  type RenderOptions,
} from './src/helm';
import { configVariables } from './src/app-config';
import { schemaErrors, unknownFieldErrors } from './src/k8s-schema';
import type {
  Container,
  Deployment,
  HorizontalPodAutoscaler,
  Ingress,
  Job,
  PodDisruptionBudget,
  PodSpec,
  Service,
  ServiceAccount,
} from './src/types';

/** Every way the chart is installed: defaults, each deploy/ values file, and everything enabled. */
const CASES: [string, RenderOptions][] = [
  ['default values', {}],
  ...DEPLOY_VALUES.map((file): [string, RenderOptions] => [file, { values: [file] }]),
  ['prod values with every service enabled', { values: ['deploy/values-prod.yaml'], set: ALL_APPS_ON }],
];

const deploymentsOf = (options: RenderOptions) => ofKind<Deployment>(render(options), 'Deployment');
const containerOf = (spec: PodSpec | undefined): Container => spec!.containers[0]!;
const env = (container: Container) => new Map((container.env ?? []).map((variable) => [variable.name, variable]));
const appEnv = (options: RenderOptions, app: string) =>
  env(containerOf(named<Deployment>(render(options), 'Deployment', `${RELEASE}-${app}`).spec!.template.spec));
/** Variables read from Secrets: never a plain value. */
const SECRET_VARIABLES = [
  'DATABASE_URL',
  'S3_ACCESS_KEY_ID',
  'S3_SECRET_ACCESS_KEY',
  'STORAGE_URL_SIGNING_KEY',
  'JWT_SIGNING_KEYS',
  'IDENTITY_SECRET',
  'INTERNAL_API_TOKEN',
  'SMTP_URL',
  'NOTIFICATIONS_ENCRYPTION_KEY',
  'SHARE_LINK_KEY',
  'REDIS_URL',
  'STRIPE_SECRET_KEY',
  'STRIPE_WEBHOOK_SECRET',
  'OPENAI_API_KEY',
  'CONNECTIONS_TOKEN_KEY',
  'SMART_CLIENT_JWK',
];

describe.each(CASES)('helm/medfolio with %s', (_name, options) => {
  it('passes helm lint --strict', () => {
    const result = lint(options);
    expect(`${result.stdout}${result.stderr}`).toContain('0 chart(s) failed');
    expect(result.status).toBe(0);
  });

  it('renders objects that are valid against the Kubernetes API schemas', async () => {
    const objects = render(options);
    expect(objects.length).toBeGreaterThan(5);
    const errors = (await Promise.all(objects.map(schemaErrors))).flat();
    expect(errors).toEqual([]);
  });

  it('renders no field that the Kubernetes API does not define', () => {
    expect(unknownFieldErrors(render(options))).toEqual([]);
  });

  it('runs every container non-root, read-only, without privileges or capabilities, seccomp RuntimeDefault', () => {
    const pods = [...ofKind<Deployment>(render(options), 'Deployment'), ...ofKind<Job>(render(options), 'Job')].map(
      (o) => o.spec!.template.spec!,
    );
    expect(pods.length).toBeGreaterThan(0);
    for (const pod of pods) {
      expect(pod.securityContext).toMatchObject({ runAsNonRoot: true, seccompProfile: { type: 'RuntimeDefault' } });
      expect(pod.securityContext!.runAsUser).toBeGreaterThan(10000);
      expect(pod.automountServiceAccountToken).toBe(false);
      expect(pod.hostNetwork ?? false).toBe(false);
      for (const container of pod.containers) {
        expect(container.securityContext).toMatchObject({
          runAsNonRoot: true,
          readOnlyRootFilesystem: true,
          allowPrivilegeEscalation: false,
          privileged: false,
          capabilities: { drop: ['ALL'] },
          seccompProfile: { type: 'RuntimeDefault' },
        });
        expect(container.securityContext!.capabilities!.add ?? []).toEqual([]);
        // The only writable place is the /tmp emptyDir, with a size limit.
        expect(container.volumeMounts).toEqual([{ name: 'tmp', mountPath: '/tmp' }]);
      }
      expect(pod.volumes).toEqual([{ name: 'tmp', emptyDir: { sizeLimit: expect.any(String) } }]);
    }
  });

  it('gives every container memory requests and limits, and CPU requests', () => {
    const containers = [
      ...ofKind<Deployment>(render(options), 'Deployment'),
      ...ofKind<Job>(render(options), 'Job'),
    ].map((o) => containerOf(o.spec!.template.spec));
    for (const container of containers) {
      expect(container.resources?.requests).toEqual(
        expect.objectContaining({ cpu: expect.anything(), memory: expect.anything() }),
      );
      expect(container.resources?.limits).toEqual(expect.objectContaining({ memory: expect.anything() }));
    }
  });

  it('probes every application on its health endpoints', () => {
    for (const deployment of deploymentsOf(options)) {
      const container = containerOf(deployment.spec!.template.spec);
      expect(container.startupProbe?.httpGet).toEqual({ path: '/health/live', port: 'http' });
      expect(container.livenessProbe?.httpGet).toEqual({ path: '/health/live', port: 'http' });
      expect(container.readinessProbe?.httpGet).toEqual({ path: '/health/ready', port: 'http' });
      expect(container.ports).toEqual([{ name: 'http', containerPort: 3000, protocol: 'TCP' }]);
      // The startup probe gives a slow start time before liveness can restart the container.
      const startup = container.startupProbe!;
      expect(startup.periodSeconds! * startup.failureThreshold!).toBeGreaterThanOrEqual(60);
    }
  });

  it('gives every application its own ServiceAccount without a token, a PodDisruptionBudget and a Service', () => {
    const objects = render(options);
    for (const deployment of deploymentsOf(options)) {
      const name = deployment.metadata!.name!;
      const pod = deployment.spec!.template.spec!;
      expect(pod.serviceAccountName).toBe(name);
      expect(named<ServiceAccount>(objects, 'ServiceAccount', name).automountServiceAccountToken).toBe(false);
      const pdb = named<PodDisruptionBudget>(objects, 'PodDisruptionBudget', name);
      expect(pdb.spec!.selector!.matchLabels).toEqual(deployment.spec!.selector.matchLabels);
      expect(pdb.spec!.maxUnavailable).toBeDefined();
      const service = named<Service>(objects, 'Service', name);
      expect(service.spec!.selector).toEqual(deployment.spec!.selector.matchLabels);
      expect(service.spec!.type).toBe('ClusterIP');
    }
  });

  it('spreads every application over zones and nodes, counting only its own pods', () => {
    for (const deployment of deploymentsOf(options)) {
      const constraints = deployment.spec!.template.spec!.topologySpreadConstraints ?? [];
      const keys = constraints.map((c) => c.topologyKey);
      expect(keys).toContain('kubernetes.io/hostname');
      for (const constraint of constraints) {
        expect(constraint.labelSelector!.matchLabels).toEqual(deployment.spec!.selector.matchLabels);
        expect(constraint.matchLabelKeys).toEqual(['pod-template-hash']);
      }
    }
  });

  it('rolls out without losing capacity', () => {
    for (const deployment of deploymentsOf(options)) {
      expect(deployment.spec!.strategy).toEqual({
        type: 'RollingUpdate',
        rollingUpdate: { maxSurge: 1, maxUnavailable: 0 },
      });
    }
  });

  it('keeps serving for the preStop sleep, then gives SIGTERM the whole grace period for the drain', () => {
    const deployments = deploymentsOf(options);
    expect(deployments.length).toBeGreaterThan(0);
    for (const deployment of deployments) {
      const spec = deployment.spec!.template.spec!;
      // The images have no shell: the sleep action, not an exec of sleep.
      expect(containerOf(spec).lifecycle).toEqual({ preStop: { sleep: { seconds: 5 } } });
      expect(spec.terminationGracePeriodSeconds).toBe(5 + 30);
    }
  });

  it('runs the migrations of each enabled service with a database as pre-install/pre-upgrade hooks', () => {
    const objects = render(options);
    const jobs = ofKind<Job>(objects, 'Job');
    const withDatabase = deploymentsOf(options)
      .filter((d) => env(containerOf(d.spec!.template.spec)).has('DATABASE_URL'))
      .map((d) => d.metadata!.name!.replace(`${RELEASE}-`, ''));
    expect(jobs.map((job) => job.metadata!.labels!['medfolio/migrates']).sort()).toEqual(withDatabase.sort());
    for (const job of jobs) {
      const app = job.metadata!.labels!['medfolio/migrates']!;
      expect(job.metadata!.annotations).toMatchObject({
        'helm.sh/hook': 'pre-install,pre-upgrade',
        'helm.sh/hook-delete-policy': 'before-hook-creation,hook-succeeded',
      });
      const pod = job.spec!.template.spec!;
      const container = containerOf(pod);
      const deployment = named<Deployment>(objects, 'Deployment', `${RELEASE}-${app}`);
      expect(container.image).toBe(containerOf(deployment.spec!.template.spec).image);
      expect(container.args).toEqual(['migrate']);
      expect(env(container).get('DATABASE_URL')).toEqual(
        env(containerOf(deployment.spec!.template.spec)).get('DATABASE_URL'),
      );
      expect(pod.restartPolicy).toBe('Never');
      expect(job.spec!.activeDeadlineSeconds).toBeGreaterThan(0);
      // Hooks run before the release's objects exist: the ServiceAccount must be a hook too.
      const account = named<ServiceAccount>(objects, 'ServiceAccount', pod.serviceAccountName!);
      expect(isHook(account as unknown as K8sObject)).toBe(true);
      expect(Number(account.metadata!.annotations!['helm.sh/hook-weight'])).toBeLessThan(
        Number(job.metadata!.annotations!['helm.sh/hook-weight']),
      );
    }
    // The gateway has no database and no migration.
    expect(jobs.some((job) => job.metadata!.labels!['medfolio/migrates'] === 'gateway')).toBe(false);
  });

  it('reads every credential from an existing Secret, never from a plain value', () => {
    const objects = render(options);
    expect(ofKind(objects, 'Secret')).toEqual([]);
    for (const workload of [...deploymentsOf(options), ...ofKind<Job>(objects, 'Job')]) {
      for (const variable of containerOf(workload.spec!.template.spec).env ?? []) {
        if (SECRET_VARIABLES.includes(variable.name)) {
          expect(variable.value).toBeUndefined();
          expect(variable.valueFrom?.secretKeyRef?.name).toBeTruthy();
        }
      }
    }
  });

  it('sets the environment the applications read', () => {
    for (const deployment of deploymentsOf(options)) {
      const variables = env(containerOf(deployment.spec!.template.spec));
      for (const name of [
        'MEDFOLIO_MODE',
        'PORT',
        'LOG_LEVEL',
        'PUBLIC_BASE_URL',
        'NATS_URL',
        'NATS_STREAM_REPLICAS',
      ]) {
        expect(variables.has(name)).toBe(true);
      }
      expect(variables.get('MEDFOLIO_MODE')!.value).toBe('service');
      expect(variables.get('PORT')!.value).toBe('3000');
      expect(deployment.spec!.template.spec!.enableServiceLinks).toBe(false);
    }
  });

  it('sets only variables that the application reads (its config class declares them)', () => {
    // PUBLIC_BASE_URL goes to every application on purpose (links in e-mails, share links): the ones
    // that build no links yet ignore it.
    const SHARED = ['PUBLIC_BASE_URL'];
    // Read by Node itself, not by the config class (the gateway's and documents' GC setting).
    const RUNTIME = ['NODE_OPTIONS'];
    for (const deployment of deploymentsOf(options)) {
      const app = deployment.metadata!.name!.replace(`${RELEASE}-`, '');
      const declared = configVariables(app);
      if (!declared) continue; // a service whose code has not landed yet
      const unknown = [...env(containerOf(deployment.spec!.template.spec)).keys()].filter(
        (name) => !declared.has(name) && !SHARED.includes(name) && !RUNTIME.includes(name),
      );
      expect([app, unknown]).toEqual([app, []]);
    }
  });

  it('gives each migration Job exactly the environment of its Deployment (migrate loads the same config)', () => {
    const objects = render(options);
    for (const job of ofKind<Job>(objects, 'Job')) {
      const app = job.metadata!.labels!['medfolio/migrates']!;
      const deployment = named<Deployment>(objects, 'Deployment', `${RELEASE}-${app}`);
      expect(containerOf(job.spec!.template.spec).env).toEqual(containerOf(deployment.spec!.template.spec).env);
    }
  });
});

describe('helm/medfolio defaults', () => {
  it('deploys the gateway, audit, identity, documents, summary, wallet, billing, notifications and connections', () => {
    const names = ofKind<Deployment>(render(), 'Deployment').map((d) => d.metadata!.name);
    expect(names.sort()).toEqual(['audit', 'billing', 'connections', 'documents', 'gateway', 'identity', 'notifications', 'summary', 'wallet'].map((app) => `${RELEASE}-${app}`));
    const jobs = ofKind<Job>(render(), 'Job').map((job) => job.metadata!.labels!['medfolio/migrates']);
    expect(jobs).toEqual(['audit', 'identity', 'documents', 'summary', 'wallet', 'billing', 'notifications', 'connections']);
    for (const app of ['identity', 'documents', 'summary', 'wallet', 'billing', 'notifications', 'connections']) {
      for (const kind of ['Service', 'ServiceAccount', 'PodDisruptionBudget', 'NetworkPolicy']) {
        expect(named(render(), kind, `${RELEASE}-${app}`)).toBeDefined();
      }
    }
  });

  it('renders every application when all are enabled', () => {
    const names = deploymentsOf({ set: ALL_APPS_ON }).map((d) => d.metadata!.name);
    expect(names.sort()).toEqual(APPS.map((app) => `${RELEASE}-${app}`).sort());
  });

  it('sets the preStop sleep and the grace period from the values, and leaves the hook out at 0 or before Kubernetes 1.30', () => {
    const gatewayPod = (render_: RenderOptions) => named<Deployment>(render(render_), 'Deployment', `${RELEASE}-gateway`).spec!.template.spec!;
    const longer = gatewayPod({ set: ['global.shutdown.preStopSeconds=12', 'gateway.terminationGracePeriodSeconds=40'] });
    expect(containerOf(longer).lifecycle).toEqual({ preStop: { sleep: { seconds: 12 } } });
    expect(longer.terminationGracePeriodSeconds).toBe(52);
    for (const spec of [gatewayPod({ set: ['global.shutdown.preStopSeconds=0'] }), gatewayPod({ kubeVersion: OLDEST_KUBE_VERSION })]) {
      expect(containerOf(spec).lifecycle).toBeUndefined();
      expect(spec.terminationGracePeriodSeconds).toBe(30);
    }
    for (const bad of ['-1', '61']) {
      expect(renderError({ set: [`global.shutdown.preStopSeconds=${bad}`] })).toContain('preStopSeconds');
    }
  });

  it(`installs on the oldest Kubernetes version Chart.yaml accepts (${OLDEST_KUBE_VERSION})`, () => {
    expect(render({ kubeVersion: OLDEST_KUBE_VERSION, set: ALL_APPS_ON }).length).toBeGreaterThan(0);
  });

  it('exposes the gateway through an Ingress with TLS, a body size for uploads, and uploads streamed through', () => {
    const ingress = named<Ingress>(render(), 'Ingress', `${RELEASE}-gateway`);
    expect(ingress.spec!.tls).toEqual([{ hosts: ['medfolio.example.com'], secretName: `${RELEASE}-gateway-tls` }]);
    // 20 files of 100 MB and the multipart envelope; the controller passes the body on as it comes, never spooled to its disk.
    expect(ingress.metadata!.annotations!['nginx.ingress.kubernetes.io/proxy-body-size']).toBe('2100m');
    expect(ingress.metadata!.annotations!['nginx.ingress.kubernetes.io/proxy-request-buffering']).toBe('off');
    const buffered = named<Ingress>(render({ set: ['gateway.ingress.streamUploads=false'] }), 'Ingress', `${RELEASE}-gateway`);
    expect(buffered.metadata!.annotations!['nginx.ingress.kubernetes.io/proxy-request-buffering']).toBeUndefined();
    const backend = ingress.spec!.rules![0]!.http!.paths[0]!.backend.service!;
    expect(backend).toEqual({ name: `${RELEASE}-gateway`, port: { name: 'http' } });
    expect(ofKind(render(), 'Ingress')).toHaveLength(1);
  });

  it('points the gateway at the identity service for token keys', () => {
    const gateway = named<Deployment>(render(), 'Deployment', `${RELEASE}-gateway`);
    expect(env(containerOf(gateway.spec!.template.spec)).get('JWT_JWKS_URL')!.value).toBe(
      `http://${RELEASE}-identity:3000/.well-known/jwks.json`,
    );
  });

  it('tells the gateway which services to report in /api/health and to trust the ingress hop', () => {
    const gatewayEnv = (options: RenderOptions) =>
      env(containerOf(named<Deployment>(render(options), 'Deployment', `${RELEASE}-gateway`).spec!.template.spec));
    expect(gatewayEnv({}).get('GATEWAY_SERVICES')!.value).toBe('audit,identity,documents,summary,wallet,billing,notifications,connections');
    expect(
      gatewayEnv({ set: ['identity.enabled=false', 'documents.enabled=false', 'summary.enabled=false', 'wallet.enabled=false', 'billing.enabled=false', 'notifications.enabled=false', 'connections.enabled=false'] }).get('GATEWAY_SERVICES')!
        .value,
    ).toBe('audit');
    expect(gatewayEnv({ set: ALL_APPS_ON }).get('GATEWAY_SERVICES')!.value).toBe(
      'audit,identity,documents,summary,wallet,billing,notifications,connections',
    );
    expect(gatewayEnv({}).get('TRUST_PROXY_HOPS')!.value).toBe('1');
    expect(gatewayEnv({}).has('REDIS_URL')).toBe(false);
    expect(gatewayEnv({ values: ['deploy/values-prod.yaml'] }).get('REDIS_URL')!.valueFrom!.secretKeyRef).toEqual({
      name: 'medfolio-redis',
      key: 'REDIS_URL',
    });
  });

  it('gives only the services that use S3 its variables', () => {
    const objects = render({ set: ALL_APPS_ON });
    const usesS3 = (app: string) =>
      env(containerOf(named<Deployment>(objects, 'Deployment', `${RELEASE}-${app}`).spec!.template.spec)).has(
        'S3_BUCKET',
      );
    expect(usesS3('documents')).toBe(true);
    expect(usesS3('gateway')).toBe(true);
    expect(usesS3('identity')).toBe(true);
    expect(usesS3('audit')).toBe(false);
    expect(usesS3('billing')).toBe(false);
    expect(usesS3('notifications')).toBe(false);
    expect(usesS3('connections')).toBe(false);
  });

  it('lets env override a variable the chart sets, without duplicates', () => {
    const objects = render({ set: ['audit.env.LOG_LEVEL=debug', 'audit.env.DATABASE_URL=postgres://override'] });
    const container = containerOf(named<Deployment>(objects, 'Deployment', `${RELEASE}-audit`).spec!.template.spec);
    const names = (container.env ?? []).map((v) => v.name);
    expect(new Set(names).size).toBe(names.length);
    expect(env(container).get('LOG_LEVEL')!.value).toBe('debug');
    expect(env(container).get('DATABASE_URL')!.value).toBe('postgres://override');
  });

  it('uses a HorizontalPodAutoscaler instead of a fixed replica count when autoscaling is on', () => {
    const objects = render({
      set: [
        'gateway.autoscaling.enabled=true',
        'gateway.autoscaling.minReplicas=3',
        'gateway.autoscaling.maxReplicas=9',
      ],
    });
    const hpa = named<HorizontalPodAutoscaler>(objects, 'HorizontalPodAutoscaler', `${RELEASE}-gateway`);
    expect(hpa.spec).toMatchObject({
      minReplicas: 3,
      maxReplicas: 9,
      scaleTargetRef: { kind: 'Deployment', name: `${RELEASE}-gateway` },
    });
    expect(named<Deployment>(objects, 'Deployment', `${RELEASE}-gateway`).spec!.replicas).toBeUndefined();
    expect(named<Deployment>(objects, 'Deployment', `${RELEASE}-audit`).spec!.replicas).toBe(2);
    expect(ofKind(render(), 'HorizontalPodAutoscaler')).toEqual([]);
  });

  it('pins an image by digest when one is given', () => {
    const digest = `sha256:${'a'.repeat(64)}`;
    const objects = render({ set: [`audit.image.digest=${digest}`, 'global.image.tag=1.2.3'] });
    expect(containerOf(named<Deployment>(objects, 'Deployment', `${RELEASE}-audit`).spec!.template.spec).image).toBe(
      `registry.example.com/medfolio/audit@${digest}`,
    );
    expect(containerOf(named<Deployment>(objects, 'Deployment', `${RELEASE}-gateway`).spec!.template.spec).image).toBe(
      'registry.example.com/medfolio/gateway:1.2.3',
    );
  });

  it('sets JetStream stream replicas to 3 in production and 1 in development', () => {
    const replicas = (file: string) =>
      deploymentsOf({ values: [file] }).map(
        (d) => env(containerOf(d.spec!.template.spec)).get('NATS_STREAM_REPLICAS')!.value,
      );
    expect(new Set(replicas('deploy/values-prod.yaml'))).toEqual(new Set(['3']));
    expect(new Set(replicas('deploy/values-staging.yaml'))).toEqual(new Set(['3']));
    expect(new Set(replicas('deploy/values-dev.yaml'))).toEqual(new Set(['1']));
  });

  it('renders no migration Job and no hook ServiceAccount when migrations are off', () => {
    const objects = render({ set: ['migrations.enabled=false'] });
    expect(ofKind(objects, 'Job')).toEqual([]);
    expect(objects.filter(isHook)).toEqual([]);
  });
});

describe('identity and notifications wiring', () => {
  const secretRef = (variable: { valueFrom?: { secretKeyRef?: { name?: string; key: string } } } | undefined) =>
    variable?.valueFrom?.secretKeyRef;

  it('points the gateway at identity for token keys and picture uploads, through its Service', () => {
    const objects = render();
    const gateway = appEnv({}, 'gateway');
    expect(gateway.get('IDENTITY_INTERNAL_URL')!.value).toBe(`http://${RELEASE}-identity:3000`);
    expect(gateway.get('JWT_JWKS_URL')!.value).toBe(`http://${RELEASE}-identity:3000/.well-known/jwks.json`);
    // Both URLs name identity's Service and a port it serves, which leads to the pods' HTTP port.
    for (const name of ['IDENTITY_INTERNAL_URL', 'JWT_JWKS_URL']) {
      const url = new URL(gateway.get(name)!.value!);
      const service = named<Service>(objects, 'Service', url.hostname);
      expect(service.spec!.ports!.map((port) => port.port)).toContain(Number(url.port));
      expect(service.spec!.ports![0]!.targetPort).toBe('http');
      expect(service.spec!.selector).toEqual(
        named<Deployment>(objects, 'Deployment', url.hostname).spec!.selector.matchLabels,
      );
    }
  });

  it('gives the gateway and identity the same INTERNAL_API_TOKEN Secret key and the same token issuer and audience', () => {
    const gateway = appEnv({}, 'gateway');
    const identity = appEnv({}, 'identity');
    expect(secretRef(gateway.get('INTERNAL_API_TOKEN'))).toEqual({ name: 'medfolio-app', key: 'INTERNAL_API_TOKEN' });
    expect(secretRef(identity.get('INTERNAL_API_TOKEN'))).toEqual(secretRef(gateway.get('INTERNAL_API_TOKEN')));
    const moved = {
      set: ['global.internalApiToken.existingSecret=medfolio-internal', 'global.internalApiToken.key=token'],
    };
    expect(secretRef(appEnv(moved, 'gateway').get('INTERNAL_API_TOKEN'))).toEqual({
      name: 'medfolio-internal',
      key: 'token',
    });
    expect(secretRef(appEnv(moved, 'identity').get('INTERNAL_API_TOKEN'))).toEqual({
      name: 'medfolio-internal',
      key: 'token',
    });
    for (const name of ['JWT_ISSUER', 'JWT_AUDIENCE']) {
      expect(identity.get(name)!.value).toBeTruthy();
      expect(gateway.get(name)!.value).toBe(identity.get(name)!.value);
    }
    const renamed = { set: ['global.jwt.issuer=https://id.example.com', 'global.jwt.audience=api'] };
    expect(appEnv(renamed, 'gateway').get('JWT_ISSUER')!.value).toBe('https://id.example.com');
    expect(appEnv(renamed, 'identity').get('JWT_AUDIENCE')!.value).toBe('api');
  });

  it('leaves the internal URLs and token out of the gateway while identity, documents and wallet are disabled', () => {
    const withoutIdentity = appEnv({ set: ['identity.enabled=false'] }, 'gateway');
    expect(withoutIdentity.has('IDENTITY_INTERNAL_URL')).toBe(false);
    expect(withoutIdentity.has('INTERNAL_API_TOKEN')).toBe(true); // documents still needs it
    const gateway = appEnv({ set: ['identity.enabled=false', 'documents.enabled=false', 'wallet.enabled=false'] }, 'gateway');
    expect(gateway.has('IDENTITY_INTERNAL_URL')).toBe(false);
    expect(gateway.has('DOCUMENTS_INTERNAL_URL')).toBe(false);
    expect(gateway.has('WALLET_INTERNAL_URL')).toBe(false);
    expect(gateway.has('INTERNAL_API_TOKEN')).toBe(false);
  });

  it('points the gateway at wallet for pass downloads, with the token wallet checks; wallet reads its certificates from the Secret and keeps passes in S3', () => {
    const gateway = appEnv({}, 'gateway');
    const wallet = appEnv({}, 'wallet');
    expect(gateway.get('WALLET_INTERNAL_URL')!.value).toBe(`http://${RELEASE}-wallet:3000`);
    expect(secretRef(wallet.get('INTERNAL_API_TOKEN'))).toEqual(secretRef(gateway.get('INTERNAL_API_TOKEN')));
    for (const name of ['WALLET_SIGNER_CERT', 'WALLET_SIGNER_KEY', 'WALLET_WWDR_CERT']) expect(secretRef(wallet.get(name))).toBeDefined();
    expect(wallet.get('S3_BUCKET')).toBeDefined();
    // The pass download links it signs: the same key as the gateway's (service mode refuses to start without it).
    expect(secretRef(wallet.get('STORAGE_URL_SIGNING_KEY'))).toEqual(secretRef(gateway.get('STORAGE_URL_SIGNING_KEY')));
  });

  it("gives the share links' key to the summary service alone, from the Secret", () => {
    expect(secretRef(appEnv({}, 'summary').get('SHARE_LINK_KEY'))).toEqual({ name: 'medfolio-app', key: 'SHARE_LINK_KEY' });
    for (const app of ['gateway', 'audit', 'identity', 'documents', 'wallet', 'billing', 'notifications', 'connections']) {
      expect([app, appEnv({ set: ['wallet.enabled=true', 'billing.enabled=true'] }, app).has('SHARE_LINK_KEY')]).toEqual([app, false]);
    }
    // Its migration seals the stored SHL keys: it reads the key too.
    const migration = ofKind<Job>(render({}), 'Job').find((job) => job.metadata!.labels!['medfolio/migrates'] === 'summary')!;
    expect(secretRef(env(containerOf(migration.spec!.template.spec)).get('SHARE_LINK_KEY'))).toEqual({ name: 'medfolio-app', key: 'SHARE_LINK_KEY' });
  });

  it('points the gateway at documents for uploads, with the token documents checks, and gives documents its limits', () => {
    const gateway = appEnv({}, 'gateway');
    const documents = appEnv({}, 'documents');
    expect(gateway.get('DOCUMENTS_INTERNAL_URL')!.value).toBe(`http://${RELEASE}-documents:3000`);
    expect(secretRef(documents.get('INTERNAL_API_TOKEN'))).toEqual(secretRef(gateway.get('INTERNAL_API_TOKEN')));
    expect(secretRef(documents.get('DATABASE_URL'))).toEqual({ name: 'medfolio-db-app', key: 'uri' });
    expect(documents.get('S3_BUCKET')!.value).toBe('medfolio');
    const plain = Object.fromEntries(
      ['DOCUMENT_MAX_FILE_BYTES', 'DOCUMENT_MAX_FILES_PER_UPLOAD', 'ZIP_MAX_ENTRIES', 'ZIP_MAX_UNCOMPRESSED_BYTES', 'ZIP_MAX_COMPRESSION_RATIO', 'DOCUMENT_QUOTA_FREE', 'DOCUMENT_QUOTA_BASIC', 'DOCUMENT_QUOTA_STANDARD', 'DOCUMENT_QUOTA_PLUS', 'DOCUMENT_QUOTA_FAMILY'].map((name) => [name, documents.get(name)!.value]),
    );
    expect(plain).toEqual({
      DOCUMENT_MAX_FILE_BYTES: '104857600',
      DOCUMENT_MAX_FILES_PER_UPLOAD: '20',
      ZIP_MAX_ENTRIES: '1000',
      ZIP_MAX_UNCOMPRESSED_BYTES: '1073741824',
      ZIP_MAX_COMPRESSION_RATIO: '100',
      DOCUMENT_QUOTA_FREE: '2',
      DOCUMENT_QUOTA_BASIC: '5',
      DOCUMENT_QUOTA_STANDARD: '12',
      DOCUMENT_QUOTA_PLUS: '25',
      DOCUMENT_QUOTA_FAMILY: 'unlimited',
    });
    // Streaming uploads: a small young generation frees network buffers early (bench/upload.mjs).
    expect([gateway.get('NODE_OPTIONS')!.value, documents.get('NODE_OPTIONS')!.value]).toEqual(['--max-semi-space-size=1', '--max-semi-space-size=1']);
    // The rest: a bounded young generation (16 MB), whatever the node's memory (the soak's RSS bound).
    for (const app of ['audit', 'identity', 'notifications', 'summary', 'wallet', 'billing', 'connections']) expect(appEnv({}, app).get('NODE_OPTIONS')!.value).toBe('--max-semi-space-size=16');
    const changed = appEnv({ set: ['documents.quotas.free=3', 'documents.uploads.maxFilesPerUpload=5'] }, 'documents');
    expect([changed.get('DOCUMENT_QUOTA_FREE')!.value, changed.get('DOCUMENT_MAX_FILES_PER_UPLOAD')!.value]).toEqual(['3', '5']);
  });

  it('sets the upload limit on documents, which enforces it, and nothing on the gateway', () => {
    expect(appEnv({}, 'gateway').has('UPLOAD_MAX_BYTES')).toBe(false);
    expect(appEnv({ set: ['documents.uploads.maxFileBytes=20971520'] }, 'documents').get('DOCUMENT_MAX_FILE_BYTES')!.value).toBe('20971520');
  });

  it('gives identity its signing keys, code secret, database, S3 and tunables', () => {
    const identity = appEnv({}, 'identity');
    expect(secretRef(identity.get('JWT_SIGNING_KEYS'))).toEqual({ name: 'medfolio-app', key: 'JWT_SIGNING_KEYS' });
    expect(secretRef(identity.get('IDENTITY_SECRET'))).toEqual({ name: 'medfolio-app', key: 'IDENTITY_SECRET' });
    expect(secretRef(identity.get('DATABASE_URL'))).toEqual({ name: 'medfolio-db-app', key: 'uri' });
    expect(secretRef(identity.get('S3_SECRET_ACCESS_KEY'))).toEqual({
      name: 'medfolio-s3',
      key: 'S3_SECRET_ACCESS_KEY',
    });
    expect(identity.get('S3_BUCKET')!.value).toBe('medfolio');
    expect(identity.get('S3_SSE')!.value).toBe('AES256');
    expect(identity.get('S3_SIGN_PAYLOAD')!.value).toBe('false');
    expect(identity.get('S3_DOWNLOADS')!.value).toBe('gateway');
    // Identity signs the profile pictures' links with the key the gateway checks them with.
    expect(secretRef(identity.get('STORAGE_URL_SIGNING_KEY'))).toEqual({ name: 'medfolio-app', key: 'STORAGE_URL_SIGNING_KEY' });
    expect(identity.get('PUBLIC_BASE_URL')!.value).toBe('https://medfolio.example.com');
    expect(identity.get('ACCESS_TOKEN_TTL_SECONDS')!.value).toBe('900');
    expect(identity.get('REFRESH_TOKEN_TTL_DAYS')!.value).toBe('30');
    expect(identity.get('AUTH_FAILURES_PER_IP_PER_HOUR')!.value).toBe('300');
    expect(identity.get('PROFILE_PICTURE_MAX_BYTES')!.value).toBe('10485760');
    expect(identity.has('GOOGLE_CLIENT_IDS')).toBe(false);
    const google = appEnv({ set: ['identity.google.clientIds=123-abc.apps.googleusercontent.com'] }, 'identity');
    expect(google.get('GOOGLE_CLIENT_IDS')!.value).toBe('123-abc.apps.googleusercontent.com');
  });

  it('gives notifications its SMTP relay, encryption key, database and mail settings, and no S3', () => {
    const notifications = appEnv({}, 'notifications');
    expect(secretRef(notifications.get('SMTP_URL'))).toEqual({ name: 'medfolio-app', key: 'SMTP_URL' });
    expect(secretRef(notifications.get('NOTIFICATIONS_ENCRYPTION_KEY'))).toEqual({
      name: 'medfolio-app',
      key: 'NOTIFICATIONS_ENCRYPTION_KEY',
    });
    expect(secretRef(notifications.get('DATABASE_URL'))).toEqual({ name: 'medfolio-db-app', key: 'uri' });
    expect(notifications.get('MAIL_FROM')!.value).toBe('Medfolio <no-reply@medfolio.example.com>');
    expect(notifications.get('SUPPORT_EMAIL')!.value).toBe('support@medfolio.example.com');
    expect(notifications.get('MAIL_GIVE_UP_AFTER_HOURS')!.value).toBe('72');
    expect(notifications.get('PUBLIC_BASE_URL')!.value).toBe('https://medfolio.example.com');
    expect(notifications.has('S3_BUCKET')).toBe(false);
    expect(notifications.has('INTERNAL_API_TOKEN')).toBe(false);
    const own = { set: ['notifications.existingSecret=medfolio-mail'] };
    expect(secretRef(appEnv(own, 'notifications').get('SMTP_URL'))).toEqual({ name: 'medfolio-mail', key: 'SMTP_URL' });
  });

  it('keeps INTERNAL_API_TOKEN away from the services that do not use it', () => {
    for (const app of ['audit', 'notifications']) expect(appEnv({}, app).has('INTERNAL_API_TOKEN')).toBe(false);
  });

  it.each(DEPLOY_VALUES)('enables identity and notifications in %s', (file) => {
    const names = deploymentsOf({ values: [file] }).map((d) => d.metadata!.name);
    expect(names).toEqual(expect.arrayContaining([`${RELEASE}-identity`, `${RELEASE}-notifications`]));
    expect(appEnv({ values: [file] }, 'notifications').get('MAIL_FROM')!.value).toMatch(/<no-reply@/);
  });
});

describe('connections wiring', () => {
  const secretRef = (variable: { valueFrom?: { secretKeyRef?: { name?: string; key: string } } } | undefined) =>
    variable?.valueFrom?.secretKeyRef;
  const connectionsPod = (options: RenderOptions) =>
    named<Deployment>(render(options), 'Deployment', `${RELEASE}-connections`).spec!.template.spec!;

  it("hands fetched records to documents' Service with the token documents checks, and seals tokens with its own key", () => {
    const objects = render();
    const connections = appEnv({}, 'connections');
    const url = new URL(connections.get('DOCUMENTS_INTERNAL_URL')!.value!);
    expect(url.origin).toBe(`http://${RELEASE}-documents:3000`);
    const service = named<Service>(objects, 'Service', url.hostname);
    expect(service.spec!.ports!.map((port) => port.port)).toContain(Number(url.port));
    expect(service.spec!.selector).toEqual(named<Deployment>(objects, 'Deployment', url.hostname).spec!.selector.matchLabels);
    expect(secretRef(connections.get('INTERNAL_API_TOKEN'))).toEqual(secretRef(appEnv({}, 'documents').get('INTERNAL_API_TOKEN')));
    expect(secretRef(connections.get('CONNECTIONS_TOKEN_KEY'))).toEqual({ name: 'medfolio-app', key: 'CONNECTIONS_TOKEN_KEY' });
    expect(secretRef(connections.get('DATABASE_URL'))).toEqual({ name: 'medfolio-db-app', key: 'uri' });
    // Its own Secret, and the internal token's own Secret, as for every service.
    const own = { set: ['connections.existingSecret=medfolio-connections', 'global.internalApiToken.existingSecret=medfolio-internal'] };
    expect(secretRef(appEnv(own, 'connections').get('CONNECTIONS_TOKEN_KEY'))).toEqual({ name: 'medfolio-connections', key: 'CONNECTIONS_TOKEN_KEY' });
    expect(secretRef(appEnv(own, 'connections').get('INTERNAL_API_TOKEN'))).toEqual({ name: 'medfolio-internal', key: 'INTERNAL_API_TOKEN' });
    // The key is connections' alone; without documents there is no URL to hand records to.
    for (const app of APPS.filter((a) => a !== 'connections')) expect([app, appEnv({}, app).has('CONNECTIONS_TOKEN_KEY')]).toEqual([app, false]);
    expect(appEnv({ set: ['documents.enabled=false'] }, 'connections').has('DOCUMENTS_INTERNAL_URL')).toBe(false);
  });

  it('sets its SMART and sync settings from the values', () => {
    const plain = (options: RenderOptions) => {
      const variables = appEnv(options, 'connections');
      return Object.fromEntries(
        [...variables].filter(([name]) => /^(SMART|CONNECTIONS)_/.test(name) && variables.get(name)!.value !== undefined).map(([name, v]) => [name, v.value]),
      );
    };
    expect(plain({})).toEqual({
      SMART_DEFAULT_CLIENT_ID: 'medfolio',
      SMART_HTTP_TIMEOUT_MS: '10000',
      CONNECTIONS_AUTHORIZE_MINUTES: '10',
      CONNECTIONS_PER_USER: '50',
      CONNECTIONS_SYNC_INTERVAL_MINUTES: '360',
      CONNECTIONS_SYNC_PAGE_SIZE: '100',
      CONNECTIONS_SYNC_MAX_PAGES: '100',
      CONNECTIONS_SYNC_MAX_RESOURCES: '20000',
      CONNECTIONS_SYNC_ATTEMPTS: '4',
      CONNECTIONS_SYNC_BACKOFF_MS: '500',
      CONNECTIONS_SYNC_MAX_ANSWER_BYTES: '16777216',
    });
    const changed = plain({
      set: [
        'connections.smart.clientId=abc-123',
        'connections.smart.redirectUrl=https://app.example.com/connections/callback',
        'connections.sync.intervalMinutes=0',
        'connections.sync.maxAnswerBytes=104857600',
      ],
    });
    expect(changed).toMatchObject({
      SMART_DEFAULT_CLIENT_ID: 'abc-123',
      CONNECTIONS_REDIRECT_URL: 'https://app.example.com/connections/callback',
      CONNECTIONS_SYNC_INTERVAL_MINUTES: '0',
      CONNECTIONS_SYNC_MAX_ANSWER_BYTES: '104857600',
    });
  });

  it('mounts the endpoint directory and the client registrations read-only from ConfigMaps only when named', () => {
    const bare = connectionsPod({});
    expect(containerOf(bare).volumeMounts).toEqual([{ name: 'tmp', mountPath: '/tmp' }]);
    expect(appEnv({}, 'connections').has('FHIR_ENDPOINTS_FILE')).toBe(false);
    expect(appEnv({}, 'connections').has('SMART_CLIENT_REGISTRATIONS_FILE')).toBe(false);
    const options = {
      set: [
        'connections.endpoints.configMap=hospitals',
        'connections.clientRegistrations.configMap=registrations',
        'connections.clientRegistrations.key=clients.json',
      ],
    };
    const pod = connectionsPod(options);
    expect(containerOf(pod).volumeMounts).toEqual([
      { name: 'tmp', mountPath: '/tmp' },
      { name: 'fhir-endpoints', mountPath: '/etc/medfolio/fhir-endpoints', readOnly: true },
      { name: 'smart-clients', mountPath: '/etc/medfolio/smart-clients', readOnly: true },
    ]);
    expect(pod.volumes).toEqual(
      expect.arrayContaining([
        { name: 'fhir-endpoints', configMap: { name: 'hospitals', items: [{ key: 'endpoints.json', path: 'endpoints.json' }] } },
        { name: 'smart-clients', configMap: { name: 'registrations', items: [{ key: 'clients.json', path: 'clients.json' }] } },
      ]),
    );
    const variables = appEnv(options, 'connections');
    expect(variables.get('FHIR_ENDPOINTS_FILE')!.value).toBe('/etc/medfolio/fhir-endpoints/endpoints.json');
    expect(variables.get('SMART_CLIENT_REGISTRATIONS_FILE')!.value).toBe('/etc/medfolio/smart-clients/clients.json');
    // The other applications never get the mounts.
    expect(containerOf(named<Deployment>(render(options), 'Deployment', `${RELEASE}-summary`).spec!.template.spec).volumeMounts).toEqual([
      { name: 'tmp', mountPath: '/tmp' },
    ]);
  });

  it('reads SMART_CLIENT_JWK only from the Secret, when listed', () => {
    expect(appEnv({}, 'connections').has('SMART_CLIENT_JWK')).toBe(false);
    const listed = appEnv({ setJson: ['connections.secretEnv=["CONNECTIONS_TOKEN_KEY","SMART_CLIENT_JWK"]'] }, 'connections');
    expect(secretRef(listed.get('SMART_CLIENT_JWK'))).toEqual({ name: 'medfolio-app', key: 'SMART_CLIENT_JWK' });
  });
});
