export * from './required-services';
export * from './test-database';
export * from './proc-cpu';
