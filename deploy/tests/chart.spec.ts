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
  type K8sObject,
  type RenderOptions,
} from './src/helm';
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
    const SECRET_VARIABLES = [
      'DATABASE_URL',
      'S3_ACCESS_KEY_ID',
      'S3_SECRET_ACCESS_KEY',
      'STORAGE_URL_SIGNING_KEY',
      'SMTP_URL',
      'STRIPE_SECRET_KEY',
      'STRIPE_WEBHOOK_SECRET',
      'OPENAI_API_KEY',
    ];
    const objects = render(options);
    expect(ofKind(objects, 'Secret')).toEqual([]);
    for (const deployment of deploymentsOf(options)) {
      for (const variable of containerOf(deployment.spec!.template.spec).env ?? []) {
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
});

describe('helm/medfolio defaults', () => {
  it('deploys only the gateway and audit; the other services wait for their code', () => {
    const names = ofKind<Deployment>(render(), 'Deployment').map((d) => d.metadata!.name);
    expect(names.sort()).toEqual([`${RELEASE}-audit`, `${RELEASE}-gateway`]);
  });

  it('renders every application when all are enabled', () => {
    const names = deploymentsOf({ set: ALL_APPS_ON }).map((d) => d.metadata!.name);
    expect(names.sort()).toEqual(APPS.map((app) => `${RELEASE}-${app}`).sort());
  });

  it(`installs on the oldest Kubernetes version Chart.yaml accepts (${OLDEST_KUBE_VERSION})`, () => {
    expect(render({ kubeVersion: OLDEST_KUBE_VERSION, set: ALL_APPS_ON }).length).toBeGreaterThan(0);
  });

  it('exposes the gateway through an Ingress with TLS and a body size for uploads', () => {
    const ingress = named<Ingress>(render(), 'Ingress', `${RELEASE}-gateway`);
    expect(ingress.spec!.tls).toEqual([{ hosts: ['medfolio.example.com'], secretName: `${RELEASE}-gateway-tls` }]);
    expect(ingress.metadata!.annotations!['nginx.ingress.kubernetes.io/proxy-body-size']).toBe('50m');
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
    expect(gatewayEnv({}).get('GATEWAY_SERVICES')!.value).toBe('audit');
    expect(gatewayEnv({ set: ALL_APPS_ON }).get('GATEWAY_SERVICES')!.value).toBe(
      'audit,identity,documents,summary,wallet,billing,notifications',
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
    expect(usesS3('audit')).toBe(false);
    expect(usesS3('billing')).toBe(false);
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
