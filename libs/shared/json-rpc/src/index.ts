export * from './json-rpc';
