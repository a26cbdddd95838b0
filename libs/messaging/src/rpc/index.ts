export * from './caller.decorator';
export * from './headers';
export * from './internal-http';
export * from './in-process-transport';
export * from './rpc-client';
export * from './rpc-exception.filter';
export * from './rpc-transport';
export * from './validation';
