import { existsSync } from 'node:fs';

/** The outside services integration and system tests need, and their local defaults. */
export const TEST_SERVICES = {
  DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/test',
  NATS_URL: 'nats://127.0.0.1:4222',
  REDIS_URL: 'redis://127.0.0.1:6379',
} as const;
export type TestServiceVariable = keyof typeof TEST_SERVICES;

export type ServiceSource = 'environment' | 'testcontainers' | 'local';

/** Is there a Docker engine Testcontainers could use? */
export function dockerAvailable(env: NodeJS.ProcessEnv = process.env, exists: (path: string) => boolean = existsSync): boolean {
  return Boolean(env['DOCKER_HOST']) || exists('/var/run/docker.sock');
}

/**
 * Where each service comes from: a URL in the environment wins (CI and this machine set them);
 * otherwise Testcontainers starts one where a Docker engine exists; otherwise the local default.
 */
export function planServices(env: NodeJS.ProcessEnv, docker: boolean): Record<TestServiceVariable, ServiceSource> {
  const plan = {} as Record<TestServiceVariable, ServiceSource>;
  for (const variable of Object.keys(TEST_SERVICES) as TestServiceVariable[]) {
    plan[variable] = env[variable] ? 'environment' : docker ? 'testcontainers' : 'local';
  }
  return plan;
}
