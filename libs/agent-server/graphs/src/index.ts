export * from './graph-registry';
