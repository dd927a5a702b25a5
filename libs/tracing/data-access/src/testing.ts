// Test-only entry point (`@platform/tracing-data-access/testing`): projects and runs inserted in a tracing database.
export * from './runs-data.testing';
