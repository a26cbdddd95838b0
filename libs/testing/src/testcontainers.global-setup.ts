import { dockerAvailable, planServices, TEST_SERVICES, type TestServiceVariable } from './service-urls';

interface Stoppable {
  stop(): Promise<unknown>;
}

const started: Stoppable[] = [];

/**
 * Jest globalSetup of the integration and system tests: sets DATABASE_URL, NATS_URL and REDIS_URL
 * for every test worker. Given URLs are kept; missing ones are started with Testcontainers where a
 * Docker engine exists (PostgreSQL 17, NATS with JetStream, Redis 7), or else point at this
 * machine's local services.
 */
export default async function globalSetup(): Promise<void> {
  const plan = planServices(process.env, dockerAvailable());
  for (const [variable, source] of Object.entries(plan) as [TestServiceVariable, string][]) {
    if (source === 'environment') continue;
    process.env[variable] = source === 'testcontainers' ? await startContainer(variable) : TEST_SERVICES[variable];
  }
  (globalThis as { __medfolioContainers?: Stoppable[] }).__medfolioContainers = started;
}

/**
 * The images: the official ones from Docker Hub by default; where Docker Hub cannot be reached, the
 * ones docker/infra/build.sh makes (TESTCONTAINERS_POSTGRES_IMAGE=medfolio/postgres:15, ...).
 */
const image = (variable: string, fallback: string): string => process.env[variable] || fallback;

async function startContainer(variable: TestServiceVariable): Promise<string> {
  const { GenericContainer, Wait } = await import('testcontainers');
  switch (variable) {
    case 'DATABASE_URL': {
      const { PostgreSqlContainer } = await import('@testcontainers/postgresql');
      const postgres = await new PostgreSqlContainer(image('TESTCONTAINERS_POSTGRES_IMAGE', 'postgres:17-alpine')).withDatabase('test').withUsername('postgres').withPassword('postgres').start();
      started.push(postgres);
      return postgres.getConnectionUri();
    }
    case 'NATS_URL': {
      const nats = await new GenericContainer(image('TESTCONTAINERS_NATS_IMAGE', 'nats:2.11-alpine')).withCommand(['-js']).withExposedPorts(4222).withWaitStrategy(Wait.forLogMessage(/Server is ready/)).start();
      started.push(nats);
      return `nats://${nats.getHost()}:${nats.getMappedPort(4222)}`;
    }
    case 'REDIS_URL': {
      const redis = await new GenericContainer(image('TESTCONTAINERS_REDIS_IMAGE', 'redis:7-alpine')).withExposedPorts(6379).start();
      started.push(redis);
      return `redis://${redis.getHost()}:${redis.getMappedPort(6379)}`;
    }
  }
}
