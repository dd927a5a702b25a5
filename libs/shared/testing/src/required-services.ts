/**
 * Tests that need a real Postgres / NATS / S3 read its address from the environment. Locally a missing service
 * skips those tests with a printed warning; in CI (`REQUIRE_SERVICES=1`) it fails them instead.
 */
export function serviceUrl(variable: string, what: string): string | undefined {
  const value = process.env[variable]?.trim();
  if (value) return value;
  if (process.env.REQUIRE_SERVICES === '1') {
    throw new Error(`${variable} is not set, and REQUIRE_SERVICES=1 requires ${what}`);
  }
  // stderr, not console.warn: jest drops console output of a file whose tests are all skipped.
  process.stderr.write(`SKIPPED: ${what} tests (set ${variable} to run them)\n`);
  return undefined;
}

/** `describe` when the service is there, `describe.skip` (with the printed reason) when it is not. */
export function describeWithService(variable: string, what: string) {
  return serviceUrl(variable, what) ? describe : describe.skip;
}
