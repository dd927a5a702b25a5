export * from './deployment-key';
export * from './trusted-identity';
