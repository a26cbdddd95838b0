/** What the one-process launcher (apps/medfolio) needs to embed the gateway. Nothing else imports it. */
export { createGatewayApp } from './bootstrap';
export { GatewayConfig } from './config';
export { buildOpenApi } from './bootstrap';
export { isLoopbackAddress } from './controllers/dev-mail.controller';
