export * from './route';
export * from './mount-routes';
export * from './document';
export { toOpenApiSchema, type JsonSchema } from './json-schema';
export * from './docs.routes';
export * from './undeclared-routes';
