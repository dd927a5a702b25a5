export * from './create-http-app';
export * from './start-http-server';
export * from './lifecycle';
export * from './metrics';
export * from './request-context';
export * from './request-id.middleware';
export * from './validate';
export { errorHandler, notFound } from './error.middleware';
export * from './run-service';
