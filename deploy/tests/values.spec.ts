// Wrong values must fail the install with a message that says what is wrong, and every value
// must be documented (a comment in values.yaml and a description in values.schema.json).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { isMap, isScalar, parseDocument, type Pair, type YAMLMap } from 'yaml';
import { chartDir, render, renderError } from './src/helm';

describe('values.schema.json refuses wrong values with a clear message', () => {
  it.each([
    ['a negative replica count', ['gateway.replicaCount=-1'], "at '/gateway/replicaCount': minimum: got -1, want 1"],
    ['a replica count that is not a number', ['audit.replicaCount=two'], "at '/audit/replicaCount'"],
    ['a misspelt key', ['gateway.replicas=3'], "additional properties 'replicas' not allowed"],
    ['an unknown application', ['billingx.enabled=true'], "additional properties 'billingx' not allowed"],
    ['a public URL without a scheme', ['global.publicBaseUrl=medfolio.example.com'], "at '/global/publicBaseUrl'"],
    ['a NATS URL with another scheme', ['global.nats.url=http://nats:4222'], "at '/global/nats/url'"],
    [
      'too many JetStream replicas',
      ['global.nats.streamReplicas=7'],
      "at '/global/nats/streamReplicas': maximum: got 7, want 5",
    ],
    ['an unknown log level', ['global.logLevel=verbose'], "at '/global/logLevel'"],
    [
      'a writable root filesystem',
      ['audit.securityContext.readOnlyRootFilesystem=false'],
      "at '/audit/securityContext",
    ],
    [
      'a pod running as root',
      ['defaults.podSecurityContext.runAsNonRoot=false'],
      "at '/defaults/podSecurityContext/runAsNonRoot'",
    ],
    ['an image digest that is not sha256', ['audit.image.digest=latest'], "at '/audit/image/digest'"],
    [
      'an unknown caller in allowFrom',
      ['identity.networkPolicy.allowFrom={gatewayx}'],
      "at '/identity/networkPolicy/allowFrom/0'",
    ],
    [
      'a disruption budget of zero',
      ['audit.podDisruptionBudget.maxUnavailable=0'],
      "at '/audit/podDisruptionBudget/maxUnavailable'",
    ],
    ['a memory limit removed', ['gateway.resources.limits=null'], "at '/gateway/resources"],
  ])('refuses %s', (_name, set, message) => {
    const error = renderError({ set });
    expect(error).toContain("values don't meet the specifications of the schema");
    expect(error).toContain(message);
  });
});

describe('validateValues refuses inconsistent values with a clear message', () => {
  it('refuses a service with a database but no Secret holding the database URL', () => {
    const error = renderError({ set: ['global.database.existingSecret='] });
    expect(error).toContain('medfolio: invalid values:');
    expect(error).toContain(
      'audit.database: audit has a database but no Secret holds its URL. Set global.database.existingSecret',
    );
  });

  it('accepts a service that brings its own database Secret', () => {
    expect(() =>
      render({ set: ['global.database.existingSecret=', 'audit.database.existingSecret=audit-db'] }),
    ).not.toThrow();
  });

  it('refuses a missing NATS URL', () => {
    expect(renderError({ set: ['global.nats.url='] })).toContain('global.nats: set global.nats.url');
  });

  it('refuses S3 users without a bucket or without credentials', () => {
    expect(renderError({ set: ['global.s3.bucket='] })).toContain(
      'global.s3.bucket: gateway uses S3 but no bucket is set.',
    );
    expect(renderError({ set: ['global.s3.existingSecret='] })).toContain(
      'global.s3.existingSecret: gateway uses S3 but no Secret holds the access key.',
    );
  });

  it('refuses secretEnv without a Secret to read it from', () => {
    expect(renderError({ set: ['global.appSecret.existingSecret=', 'billing.enabled=true'] })).toContain(
      'billing.secretEnv: billing reads STRIPE_SECRET_KEY, STRIPE_WEBHOOK_SECRET from a Secret',
    );
  });

  it('refuses an autoscaler whose minimum exceeds its maximum', () => {
    const set = [
      'gateway.autoscaling.enabled=true',
      'gateway.autoscaling.minReplicas=5',
      'gateway.autoscaling.maxReplicas=3',
    ];
    expect(renderError({ set })).toContain('gateway.autoscaling: minReplicas (5) is greater than maxReplicas (3).');
  });

  it('refuses a release with no application', () => {
    expect(renderError({ set: ['gateway.enabled=false', 'audit.enabled=false'] })).toContain(
      'No application is enabled',
    );
  });

  it('lists every broken rule at once', () => {
    const error = renderError({
      set: ['global.database.existingSecret=', 'global.nats.url=', 'identity.enabled=true'],
    });
    expect(error).toContain('audit.database:');
    expect(error).toContain('identity.database:');
    expect(error).toContain('global.nats:');
  });
});

describe('every value is documented', () => {
  const valuesFile = path.join(chartDir, 'values.yaml');
  const doc = parseDocument(readFileSync(valuesFile, 'utf8'));
  interface SchemaNode {
    description?: string;
    properties?: Record<string, SchemaNode>;
    $ref?: string;
    allOf?: SchemaNode[];
    definitions?: Record<string, SchemaNode>;
  }
  const schema = JSON.parse(readFileSync(path.join(chartDir, 'values.schema.json'), 'utf8')) as SchemaNode;
  const resolve = (node: SchemaNode): SchemaNode => {
    const target = node.$ref ? schema.definitions![node.$ref.replace('#/definitions/', '')]! : node;
    return target.allOf ? { ...target, ...resolve(target.allOf[0]!) } : target;
  };

  /** Key paths of values.yaml down to the maps the schema describes field by field. */
  const keyPaths: { path: string; pair: Pair; schema: SchemaNode | undefined }[] = [];
  const walk = (map: YAMLMap, schemaNode: SchemaNode | undefined, prefix: string) => {
    for (const pair of map.items) {
      const key = isScalar(pair.key) ? String(pair.key.value) : '?';
      const keyPath = prefix ? `${prefix}.${key}` : key;
      const child = schemaNode?.properties?.[key];
      const resolved = child ? resolve(child) : undefined;
      keyPaths.push({ path: keyPath, pair, schema: child });
      if (isMap(pair.value) && resolved?.properties) walk(pair.value, resolved, keyPath);
    }
  };
  walk(doc.contents as YAMLMap, schema, '');

  it('has a schema entry with a description for every key of values.yaml', () => {
    const undocumented = keyPaths.filter(
      ({ schema: node }) => !node || !(node.description ?? (node.$ref ? resolve(node).description : undefined)),
    );
    expect(undocumented.map(({ path: p }) => p)).toEqual([]);
    expect(keyPaths.length).toBeGreaterThan(150);
  });

  it('has a comment in values.yaml for every value (a commented map documents what it holds)', () => {
    const uncommented: string[] = [];
    const check = (map: YAMLMap, prefix: string) => {
      map.items.forEach((pair, index) => {
        const key = isScalar(pair.key) ? String(pair.key.value) : '?';
        const keyPath = prefix ? `${prefix}.${key}` : key;
        // The parser attaches a comment above a map's first key to the map itself.
        const comment =
          (isScalar(pair.key) ? pair.key.commentBefore : undefined) ?? (index === 0 ? map.commentBefore : undefined);
        if (comment?.trim()) return;
        if (isMap(pair.value) && pair.value.items.length > 0) check(pair.value, keyPath);
        else uncommented.push(keyPath);
      });
    };
    check(doc.contents as YAMLMap, '');
    expect(uncommented).toEqual([]);
  });
});
