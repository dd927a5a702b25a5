export * from './platform-errors';
export * from './validation-error';
export * from './zod-issues';
export * from './http-status';
export * from './grpc-status';
export * from './create-error';
export * from './unstorable-text';
