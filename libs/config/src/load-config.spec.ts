import { IsBoolean, IsString, MinLength } from 'class-validator';
import { CommonConfig } from './common.config';
import { BaseConfig, WithMessaging, WithPublicUrl, WithStorage } from './concerns';
import { Env, envBindings } from './env.decorator';
import { ConfigError, describeConfig, loadConfig } from './load-config';

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
