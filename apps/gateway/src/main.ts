import 'reflect-metadata';
import { createRpcClient } from '@medfolio/messaging';
import { createEventBus, loadConfigOrExit, tuneGarbageCollector } from '@medfolio/runtime';
import { loadOrCreateSigningKeys, publicJwks } from '@medfolio/security';
import { createGatewayApp } from './bootstrap';
import { GatewayConfig } from './config';

/** The gateway as its own process (Kubernetes, the multi-process system tests). */
async function main(): Promise<void> {
  const config = loadConfigOrExit(GatewayConfig);
  tuneGarbageCollector(config.gcMarkingTriggers);
  const rpc = createRpcClient('gateway', { natsUrl: config.natsUrl, timeoutMs: config.rpcTimeoutMs });
  await rpc.connect();
  // Without JWT_JWKS_URL the gateway trusts the key ring in DATA_DIR (shared with identity in dev).
  const localJwks = config.jwksUrl ? null : publicJwks(await loadOrCreateSigningKeys(config.dataDir));
  const eventBus = await createEventBus(config, 'gateway');
  const app = await createGatewayApp({ config, rpc, eventBus, localJwks });
  await app.listen({ port: config.port, host: config.host });
  const stop = async () => {
    await app.close();
    await rpc.close();
    await eventBus.close();
  };
  process.once('SIGTERM', () => void stop());
  process.once('SIGINT', () => void stop());
}

void main();
