import type { OpenAPIObject } from '@nestjs/swagger';
import { loadConfig } from '@medfolio/config';
import { createRpcClient, InProcessEventBus } from '@medfolio/messaging';
import { buildOpenApi, createGatewayApp } from '../bootstrap';
import { GatewayConfig } from '../config';

/**
 * The gateway's OpenAPI document, built from its controllers without starting anything: no
 * listener, no NATS, no Redis. The web app's API client is generated from it
 * (npm run api:generate), and a test keeps the committed copy in step with the controllers.
 */
export async function exportOpenApi(): Promise<OpenAPIObject> {
  const config = loadConfig(GatewayConfig, { LOG_LEVEL: 'silent' });
  const rpc = createRpcClient('gateway', { timeoutMs: 1000 });
  const app = await createGatewayApp({ config, rpc, eventBus: new InProcessEventBus(), localJwks: { keys: [] }, devMailKey: null, webRoot: null });
  try {
    await app.init();
    return buildOpenApi(app);
  } finally {
    await app.close();
  }
}
