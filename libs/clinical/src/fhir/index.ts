export * from './ips';
