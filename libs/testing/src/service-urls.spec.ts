import { dockerAvailable, planServices } from './service-urls';

describe('where test services come from', () => {
  it('keeps URLs given in the environment', () => {
    expect(planServices({ DATABASE_URL: 'postgres://ci/db', NATS_URL: 'nats://ci:4222', REDIS_URL: 'redis://ci' }, true)).toEqual({
      DATABASE_URL: 'environment',
      NATS_URL: 'environment',
      REDIS_URL: 'environment',
    });
  });

  it('starts missing ones with Testcontainers only where Docker runs, else uses the local services', () => {
    expect(planServices({ NATS_URL: 'nats://ci:4222' }, true)).toEqual({ DATABASE_URL: 'testcontainers', NATS_URL: 'environment', REDIS_URL: 'testcontainers' });
    expect(planServices({}, false)).toEqual({ DATABASE_URL: 'local', NATS_URL: 'local', REDIS_URL: 'local' });
  });

  it('detects a Docker engine by DOCKER_HOST or its socket', () => {
    expect(dockerAvailable({ DOCKER_HOST: 'tcp://127.0.0.1:2375' }, () => false)).toBe(true);
    expect(dockerAvailable({}, (p) => p === '/var/run/docker.sock')).toBe(true);
    expect(dockerAvailable({}, () => false)).toBe(false);
  });
});
