export * from './trusted-identity';
