export * from './required-services';
export * from './test-database';
export * from './proc-cpu';
export * from './error-answer';
export * from './sse-body';
export * from './scratch-nats-cluster';
export * from './scratch-postgres-cluster';
export * from './raw-http-client';
