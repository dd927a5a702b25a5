export * from './required-services';
export * from './test-database';
