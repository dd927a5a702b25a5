// Test-only entry point (`@platform/export-data-access/testing`): a migrated export database of the test's own.
export * from './export-database.testing';
