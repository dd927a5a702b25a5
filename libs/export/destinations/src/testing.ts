// Test-only entry point (`@platform/export-destinations/testing`): S3 fixtures on real s3rver.
export * from './s3-server.testing';
