import { IsBoolean, IsOptional, IsString, MinLength } from 'class-validator';
import { CommonConfig } from './common.config';
import { BaseConfig, WithInternalHttp, WithMessaging, WithPublicUrl, WithStorage } from './concerns';
import { Env, envBindings } from './env.decorator';
import { ConfigError, describeConfig, isKnownDefaultSecret, KNOWN_DEFAULT_SECRETS, loadConfig } from './load-config';

class TestConfig extends CommonConfig {
  @Env('TEST_SECRET', { sensitive: true })
  @IsString()
  @MinLength(16, { message: 'must be at least 16 characters' })
  secret = 'default-secret-0123456789';

  @Env('TEST_FLAG')
  @IsBoolean()
  flag = true;
}

describe('loadConfig', () => {
  it('uses defaults when nothing is set (embedded mode)', () => {
    const config = loadConfig(TestConfig, {});
    expect(config.mode).toBe('embedded');
    expect(config.port).toBe(3000);
    expect(config.databaseUrl).toBeUndefined();
    expect(config.natsUrl).toBeUndefined();
  });

  it('converts numbers and booleans from text', () => {
    const config = loadConfig(TestConfig, { PORT: '8080', TEST_FLAG: 'false', NATS_STREAM_REPLICAS: '3' });
    expect(config.port).toBe(8080);
    expect(config.flag).toBe(false);
    expect(config.natsStreamReplicas).toBe(3);
  });

  it('names the variable in one line and hides its value', () => {
    expect(() => loadConfig(TestConfig, { DATABASE_URL: 'mysql://user:hunter2@db/x' })).toThrow(
      new ConfigError('Invalid configuration: DATABASE_URL must be a postgres:// URL (value hidden)'),
    );
    try {
      loadConfig(TestConfig, { TEST_SECRET: 'short-hunter2' });
      throw new Error('expected a ConfigError');
    } catch (error) {
      expect((error as Error).message).toBe('Invalid configuration: TEST_SECRET must be at least 16 characters (value hidden)');
      expect((error as Error).message).not.toContain('hunter2');
    }
  });

  it('refuses a bad port and a bad mode', () => {
    expect(() => loadConfig(TestConfig, { PORT: 'eighty' })).toThrow(/^Invalid configuration: PORT must be/);
    expect(() => loadConfig(TestConfig, { PORT: '70000' })).toThrow('PORT must be a port number (0 to 65535)');
    expect(() => loadConfig(TestConfig, { MEDFOLIO_MODE: 'cluster' })).toThrow(
      'MEDFOLIO_MODE must be one of: embedded, service',
    );
  });

  it('takes GC_MARKING_TRIGGERS as "v8" or "soft,hard" percentages (default 80,95)', () => {
    expect(loadConfig(TestConfig, {}).gcMarkingTriggers).toBe('80,95');
    expect(loadConfig(TestConfig, { GC_MARKING_TRIGGERS: 'v8' }).gcMarkingTriggers).toBe('v8');
    expect(loadConfig(TestConfig, { GC_MARKING_TRIGGERS: '60,100' }).gcMarkingTriggers).toBe('60,100');
    for (const bad of ['80', '0,95', '80,101', '80,95,99', ' 80,95', '--expose-gc'])
      expect(() => loadConfig(TestConfig, { GC_MARKING_TRIGGERS: bad })).toThrow(
        'GC_MARKING_TRIGGERS must be "v8" or two percentages "soft,hard" (1 to 100) such as 80,95',
      );
  });

  it('masks sensitive values when described', () => {
    const config = loadConfig(TestConfig, { DATABASE_URL: 'postgres://u:p@h/db' });
    const described = describeConfig(TestConfig, config);
    expect(described['DATABASE_URL']).toBe('***');
    expect(described['TEST_SECRET']).toBe('***');
    expect(described['PORT']).toBe(3000);
  });
});

describe('configuration by concern', () => {
  class Composed extends WithPublicUrl(WithStorage(WithMessaging(BaseConfig))) {}

  it('binds each concern once, and only the concerns composed', () => {
    const variables = envBindings(Composed).map((binding) => binding.variable);
    expect(variables).toEqual(expect.arrayContaining(['PORT', 'NATS_URL', 'S3_BUCKET', 'PUBLIC_BASE_URL']));
    expect(variables).not.toContain('DATABASE_URL');
    expect(new Set(variables).size).toBe(variables.length);
  });

  it("validates a concern's settings like any other, naming the variable", () => {
    expect(() => loadConfig(Composed, { PUBLIC_BASE_URL: 'javascript:alert(1)' })).toThrow('PUBLIC_BASE_URL must be an http(s) URL');
    expect(loadConfig(Composed, { NATS_URL: 'nats://n:4222' }).natsUrl).toBe('nats://n:4222');
  });
});

describe('service mode refuses missing or published secrets', () => {
  class ServiceConfig extends WithInternalHttp(WithStorage(BaseConfig)) {
    @Env('TEST_SERVICE_KEY', { sensitive: true, serviceSecret: { how: 'openssl rand -base64 32' } })
    @IsOptional()
    @IsString()
    key?: string;
  }
  const good = {
    INTERNAL_API_TOKEN: 'a'.repeat(8) + 'Zq3-uN8x1Vb0pLr7Tq2wYe5s',
    STORAGE_URL_SIGNING_KEY: 'Kp9'.repeat(12),
    STORAGE_ENCRYPTION_KEYS: 'k1:x8F3kq0Z2m9Lr4Tv7Yb1Nc6Hw5Js0Pd9Ab1Cd2Ef3Gh=',
    TEST_SERVICE_KEY: 'x8F3kq0Z2m9Lr4Tv7Yb1Nc6Hw5Js0Pd=',
  };

  it('embedded mode (npm start) makes its own: nothing is required', () => {
    expect(() => loadConfig(ServiceConfig, {})).not.toThrow();
  });

  it('service mode starts with every secret given', () => {
    expect(loadConfig(ServiceConfig, { MEDFOLIO_MODE: 'service', ...good }).internalApiToken).toBe(good.INTERNAL_API_TOKEN);
  });

  it.each(['INTERNAL_API_TOKEN', 'STORAGE_URL_SIGNING_KEY', 'STORAGE_ENCRYPTION_KEYS', 'TEST_SERVICE_KEY'] as const)('service mode without %s: refused, naming the setting and how to make one', (variable) => {
    const env = { MEDFOLIO_MODE: 'service', ...good, [variable]: '' };
    expect(() => loadConfig(ServiceConfig, env)).toThrow(ConfigError);
    expect(() => loadConfig(ServiceConfig, env)).toThrow(new RegExp(`^Invalid configuration: ${variable} is required in service mode \\(MEDFOLIO_MODE=service\\): .+ \\(not set\\)$`));
  });

  it.each([
    ['INTERNAL_API_TOKEN', 'medfolio-dev-internal-api-token-change-me'],
    ['STORAGE_URL_SIGNING_KEY', 'medfolio-dev-url-signing-key-change-me'],
    ['TEST_SERVICE_KEY', 'bWVkZm9saW8tZGV2LW5vdGlmaWNhdGlvbnMta2V5ISE='],
    ['INTERNAL_API_TOKEN', 'please-CHANGE-ME-before-production-0000'],
  ])('service mode with a published default %s: refused without showing it', (variable, value) => {
    try {
      loadConfig(ServiceConfig, { MEDFOLIO_MODE: 'service', ...good, [variable]: value });
      throw new Error('expected a ConfigError');
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      expect((error as Error).message).toMatch(new RegExp(`^Invalid configuration: ${variable} is a published default or placeholder, refused in service mode: .+ \\(value hidden\\)$`));
      expect((error as Error).message).not.toContain(value);
    }
  });

  it("asks for the file store's encryption keys only without S3", () => {
    const env = { MEDFOLIO_MODE: 'service', ...good, STORAGE_ENCRYPTION_KEYS: '' };
    expect(() => loadConfig(ServiceConfig, env)).toThrow('STORAGE_ENCRYPTION_KEYS is required in service mode');
    expect(() => loadConfig(ServiceConfig, { ...env, S3_BUCKET: 'medfolio' })).not.toThrow();
  });

  it('asks for the URL signing key only where links are signed (filesystem store, or S3 with gateway downloads)', () => {
    const env = { MEDFOLIO_MODE: 'service', ...good, STORAGE_URL_SIGNING_KEY: '' };
    expect(() => loadConfig(ServiceConfig, { ...env, S3_BUCKET: 'medfolio' })).toThrow('STORAGE_URL_SIGNING_KEY is required in service mode');
    expect(() => loadConfig(ServiceConfig, { ...env, S3_BUCKET: 'medfolio', S3_DOWNLOADS: 'presigned' })).not.toThrow();
  });

  it('knows the values this repository published', () => {
    for (const value of KNOWN_DEFAULT_SECRETS) expect(isKnownDefaultSecret(value)).toBe(true);
    expect(isKnownDefaultSecret('x8F3kq0Z2m9Lr4Tv7Yb1Nc6Hw5Js0Pd=')).toBe(false);
    // In a key list, one published key is enough to refuse it.
    expect(isKnownDefaultSecret(`new:${'A'.repeat(43)}=,old:bWVkZm9saW8tZGV2LW5vdGlmaWNhdGlvbnMta2V5ISE=`)).toBe(true);
    expect(isKnownDefaultSecret(`new:${'A'.repeat(43)}=`)).toBe(false);
  });
});
