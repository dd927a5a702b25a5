// Test-only entry point (`@platform/export-s3/testing`): S3 fixtures on real s3rver.
export * from './s3-server.testing';
