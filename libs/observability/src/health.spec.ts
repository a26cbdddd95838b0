import type { IncomingMessage } from 'node:http';
import { HealthRegistry } from './health';
import { correlationIdOf } from './logging';

describe('HealthRegistry', () => {
  it('is ready when every check passes', async () => {
    const registry = new HealthRegistry();
    registry.register('database', async () => true);
    registry.register('messaging', async () => true);
    await expect(registry.readiness()).resolves.toEqual({ status: 'ok', checks: { database: 'up', messaging: 'up' } });
  });

  it('is not ready when a check fails, throws or hangs', async () => {
    const registry = new HealthRegistry();
    registry.register('database', async () => false);
    registry.register('messaging', () => Promise.reject(new Error('connection refused')));
    registry.register('storage', () => new Promise<boolean>(() => undefined));
    await expect(registry.readiness(50)).resolves.toEqual({
      status: 'unavailable',
      checks: { database: 'down', messaging: 'down', storage: 'down' },
    });
  });
});

describe('correlationIdOf', () => {
  const req = (value?: string) => ({ headers: value === undefined ? {} : { 'x-correlation-id': value } }) as IncomingMessage;

  it('keeps a safe id given by the caller', () => {
    expect(correlationIdOf(req('abc-123'))).toBe('abc-123');
  });

  it('replaces a missing or unsafe id with a UUID', () => {
    expect(correlationIdOf(req())).toMatch(/^[0-9a-f-]{36}$/);
    expect(correlationIdOf(req('<script>alert(1)</script>'))).toMatch(/^[0-9a-f-]{36}$/);
    expect(correlationIdOf(req('x'.repeat(101)))).toMatch(/^[0-9a-f-]{36}$/);
  });
});
