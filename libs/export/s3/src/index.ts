export * from './s3-client';
export * from './s3-errors';
export * from './destination-check';
export * from './credential-cipher';
export * from './object-layout';
export * from './ambient-credentials';
