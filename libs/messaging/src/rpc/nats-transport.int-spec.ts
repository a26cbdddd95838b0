import { randomUUID } from 'node:crypto';
import { describeRpcContract } from './rpc.contract';

const natsUrl = process.env['NATS_URL'] ?? 'nats://127.0.0.1:4222';

describeRpcContract('NATS', () => ({ natsUrl, timeoutMs: 500 }), `int${randomUUID().slice(0, 8)}`);
