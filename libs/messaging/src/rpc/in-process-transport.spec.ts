import { describeRpcContract } from './rpc.contract';

describeRpcContract('in-process', () => ({ timeoutMs: 500 }), 'unit');
