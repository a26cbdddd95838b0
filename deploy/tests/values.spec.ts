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
    ['a document quota that is not a number of documents', ['documents.quotas.basic=five'], "at '/documents/quotas/basic'"],
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
    [
      'an access token lifetime under a minute',
      ['identity.auth.accessTokenTtlSeconds=30'],
      "at '/identity/auth/accessTokenTtlSeconds': minimum: got 30, want 60",
    ],
    [
      'a Google client id list with spaces',
      ['identity.google.clientIds=one\\, two'],
      "at '/identity/google/clientIds'",
    ],
    ['a sender that is not an address', ['notifications.mail.from=Medfolio'], "at '/notifications/mail/from'"],
    [
      'mail kept for more than 30 days',
      ['notifications.mail.giveUpAfterHours=721'],
      "at '/notifications/mail/giveUpAfterHours': maximum: got 721, want 720",
    ],
    ['an unknown S3 encryption', ['global.s3.serverSideEncryption=aes'], "at '/global/s3/serverSideEncryption'"],
    ['an SMTP port out of range', ['networkPolicy.smtp.ports={70000}'], "at '/networkPolicy/smtp/ports/0'"],
    ['an empty token issuer', ['global.jwt.issuer='], "at '/global/jwt/issuer'"],
    ['a SMART client id with a space', ['connections.smart.clientId=my app'], "at '/connections/smart/clientId'"],
    ['a redirect URI without a scheme', ['connections.smart.redirectUrl=app.example.com/cb'], "at '/connections/smart/redirectUrl'"],
    [
      'a sync page size under 10',
      ['connections.sync.pageSize=5'],
      "at '/connections/sync/pageSize': minimum: got 5, want 10",
    ],
    [
      'FHIR answers over 100 MiB',
      ['connections.sync.maxAnswerBytes=104857601'],
      "at '/connections/sync/maxAnswerBytes': maximum",
    ],
    ['a ConfigMap name that Kubernetes refuses', ['connections.endpoints.configMap=Hospitals_List'], "at '/connections/endpoints/configMap'"],
    ['an EHR port out of range', ['networkPolicy.ehr.ports={0}'], "at '/networkPolicy/ehr/ports/0'"],
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
    const own = ['audit', 'identity', 'documents', 'summary', 'wallet', 'billing', 'notifications', 'connections'].map((app) => `${app}.database.existingSecret=${app}-db`);
    expect(() => render({ set: ['global.database.existingSecret=', ...own] })).not.toThrow();
    expect(renderError({ set: ['global.database.existingSecret=', own[0]!, own[1]!, own[2]!, own[3]!, own[4]!] })).toContain(
      'notifications.database: notifications has a database but no Secret holds its URL.',
    );
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
    const set = ['gateway', 'audit', 'identity', 'documents', 'summary', 'wallet', 'billing', 'notifications', 'connections'].map((app) => `${app}.enabled=false`);
    expect(renderError({ set })).toContain('No application is enabled');
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

describe('validateValues refuses identity and notifications without their secrets', () => {
  it.each([
    [
      'notifications without SMTP_URL',
      { setJson: ['notifications.secretEnv=["NOTIFICATIONS_ENCRYPTION_KEY"]'] },
      'notifications.secretEnv: notifications needs SMTP_URL (the SMTP relay, smtp://user:password@host:587 or smtps://user:password@host:465) from a Secret: add SMTP_URL to notifications.secretEnv and the key SMTP_URL to the Secret "medfolio-app"',
    ],
    [
      'notifications without its encryption key',
      { setJson: ['notifications.secretEnv=["SMTP_URL"]'] },
      'notifications.secretEnv: notifications needs NOTIFICATIONS_ENCRYPTION_KEY (the key that encrypts stored messages, 32 random bytes in base64) from a Secret',
    ],
    [
      'identity without signing keys',
      { setJson: ['identity.secretEnv=["IDENTITY_SECRET"]'] },
      'identity.secretEnv: identity needs JWT_SIGNING_KEYS (the JSON array of private EC P-256 JWKs (each with a kid) that sign access tokens) from a Secret',
    ],
    [
      'identity without its code secret',
      { setJson: ['identity.secretEnv=[]'] },
      'identity.secretEnv: identity needs IDENTITY_SECRET (the HMAC key of verification codes, 32+ characters) from a Secret',
    ],
    [
      "summary without the share links' key",
      { setJson: ['summary.secretEnv=[]'] },
      "summary.secretEnv: summary needs SHARE_LINK_KEY (the share links' own key, 32 random bytes in base64, held by the summary service only) from a Secret: add SHARE_LINK_KEY to summary.secretEnv",
    ],
    [
      'wallet without the download links key',
      { setJson: ['wallet.secretEnv=["WALLET_SIGNER_CERT","WALLET_SIGNER_KEY","WALLET_WWDR_CERT"]'] },
      'wallet.secretEnv: wallet needs STORAGE_URL_SIGNING_KEY (the key that signs download links, 32+ random characters, the same in every service that makes or serves them) from a Secret',
    ],
    [
      "connections without the tokens' key",
      { setJson: ['connections.secretEnv=[]'] },
      "connections.secretEnv: connections needs CONNECTIONS_TOKEN_KEY (the key that seals the hospitals' tokens at rest, 32 random bytes in base64 (openssl rand -base64 32), the same in every connections pod) from a Secret: add CONNECTIONS_TOKEN_KEY to connections.secretEnv",
    ],
    [
      "connections' private JWK given as a plain value",
      { set: ['connections.env.SMART_CLIENT_JWK=x'] },
      'connections.env.SMART_CLIENT_JWK: SMART_CLIENT_JWK is a secret: remove it from connections.env',
    ],
    [
      'the internal token given to connections as a plain value',
      { set: ['connections.env.INTERNAL_API_TOKEN=0123456789abcdef0123456789abcdef'] },
      'connections.env.INTERNAL_API_TOKEN: INTERNAL_API_TOKEN is a secret',
    ],
    [
      'a NetworkPolicy that keeps connections away from documents',
      { setJson: ['documents.networkPolicy.allowFrom=["gateway","summary"]'] },
      'documents.networkPolicy.allowFrom: keep connections in the list: connections hands the records it fetched from hospitals to documents over HTTP (/internal/documents).',
    ],
    [
      'no Secret for the internal token while only connections uses it',
      {
        set: [
          'global.appSecret.existingSecret=',
          'identity.enabled=false',
          'documents.enabled=false',
          'wallet.enabled=false',
          'gateway.existingSecret=gw',
          'summary.existingSecret=share-links',
          'notifications.existingSecret=mail',
          'billing.existingSecret=stripe',
          'connections.existingSecret=connections',
        ],
      },
      'global.internalApiToken: the gateway, identity, documents and connections share INTERNAL_API_TOKEN',
    ],
    [
      'a secret given as a plain value',
      { set: ['notifications.env.SMTP_URL=smtp://user:password@relay:587'] },
      'notifications.env.SMTP_URL: SMTP_URL is a secret (the SMTP relay, smtp://user:password@host:587 or smtps://user:password@host:465): remove it from notifications.env',
    ],
    [
      'the internal token given as a plain value',
      { set: ['gateway.env.INTERNAL_API_TOKEN=0123456789abcdef0123456789abcdef'] },
      'gateway.env.INTERNAL_API_TOKEN: INTERNAL_API_TOKEN is a secret',
    ],
    [
      'no Secret for the secrets of identity and notifications',
      { set: ['global.appSecret.existingSecret=', 'gateway.existingSecret=medfolio-gateway'] },
      'notifications.secretEnv: notifications reads SMTP_URL, NOTIFICATIONS_ENCRYPTION_KEY from a Secret, but neither notifications.existingSecret nor global.appSecret.existingSecret is set. Create the Secret first (deploy/README.md, step 7)',
    ],
    [
      'no Secret for the token the gateway, identity and documents share',
      {
        set: [
          'global.appSecret.existingSecret=',
          'gateway.existingSecret=gw',
          'identity.existingSecret=id',
          'documents.existingSecret=docs',
          'notifications.existingSecret=mail',
          'connections.existingSecret=connections',
        ],
      },
      'global.internalApiToken: the gateway, identity, documents and connections share INTERNAL_API_TOKEN (32+ characters, e.g. openssl rand -base64 32) from a Secret, but neither global.internalApiToken.existingSecret nor global.appSecret.existingSecret is set.',
    ],
    [
      'the internal token given to documents as a plain value',
      { set: ['documents.env.INTERNAL_API_TOKEN=0123456789abcdef0123456789abcdef'] },
      'documents.env.INTERNAL_API_TOKEN: INTERNAL_API_TOKEN is a secret',
    ],
    [
      'a NetworkPolicy that keeps the gateway away from documents',
      { setJson: ['documents.networkPolicy.allowFrom=[]'] },
      'documents.networkPolicy.allowFrom: keep gateway in the list: the gateway streams document uploads to documents over HTTP',
    ],
    [
      'documents without S3',
      { set: ['documents.s3.enabled=false'] },
      'documents.s3.enabled: documents keeps the documents in S3',
    ],
    [
      'a document size the Ingress would refuse',
      { set: ['gateway.ingress.maxBodySize=50m'] },
      'documents.uploads.maxFileBytes: documents accepts files of 104857600 bytes but the Ingress refuses bodies over 50m (52428800 bytes, multipart envelope included)',
    ],

    [
      'a NetworkPolicy that keeps the gateway away from identity',
      { setJson: ['identity.networkPolicy.allowFrom=[]'] },
      'identity.networkPolicy.allowFrom: keep gateway in the list',
    ],
    [
      'identity without S3',
      { set: ['identity.s3.enabled=false'] },
      'identity.s3.enabled: identity stores profile pictures and needs S3 in Kubernetes',
    ],
    [
      'an upload limit the Ingress would refuse',
      { set: ['documents.uploads.maxFileBytes=104857600', 'gateway.ingress.maxBodySize=50m'] },
      'documents.uploads.maxFileBytes: documents accepts files of 104857600 bytes but the Ingress refuses bodies over 50m (52428800 bytes, multipart envelope included)',
    ],
  ])('refuses %s', (_name, options, message) => {
    const error = renderError(options);
    expect(error).toContain('medfolio: invalid values:');
    expect(error).toContain(message);
  });

  it('accepts the secrets from a valueFrom in extraEnv, and Secrets of their own', () => {
    const smtpFromElsewhere = JSON.stringify([
      { name: 'SMTP_URL', valueFrom: { secretKeyRef: { name: 'mail-relay', key: 'url' } } },
    ]);
    expect(() =>
      render({
        setJson: [
          'notifications.secretEnv=["NOTIFICATIONS_ENCRYPTION_KEY"]',
          `notifications.extraEnv=${smtpFromElsewhere}`,
        ],
      }),
    ).not.toThrow();
    expect(() =>
      render({
        set: [
          'global.appSecret.existingSecret=',
          'gateway.existingSecret=gw',
          'identity.existingSecret=id',
          'documents.existingSecret=docs',
          'summary.existingSecret=share-links',
          'wallet.existingSecret=wallet-certificates',
          'notifications.existingSecret=mail',
          'billing.existingSecret=stripe',
          'connections.existingSecret=connections',
          'global.internalApiToken.existingSecret=internal',
        ],
      }),
    ).not.toThrow();
  });

  it('accepts uploads up to the Ingress limit when it is raised or switched off', () => {
    expect(() =>
      render({ set: ['documents.uploads.maxFileBytes=104857600', 'gateway.ingress.maxBodySize=120m'] }),
    ).not.toThrow();
    expect(() =>
      render({ set: ['documents.uploads.maxFileBytes=104857600'], setJson: ['gateway.ingress.maxBodySize="0"'] }),
    ).not.toThrow();
    expect(() => render({ set: ['documents.uploads.maxFileBytes=104857600', 'gateway.ingress.enabled=false'] })).not.toThrow();
  });

  it('accepts identity and notifications switched off without their secrets', () => {
    expect(() =>
      render({
        set: ['identity.enabled=false', 'notifications.enabled=false', 'identity.s3.enabled=false'],
        setJson: ['identity.secretEnv=[]', 'notifications.secretEnv=[]'],
      }),
    ).not.toThrow();
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
