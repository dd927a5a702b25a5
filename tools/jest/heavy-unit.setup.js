// Unit specs that start servers (every `*.sdk.spec.ts`, and any spec that starts an HTTP server or a test agent
// server) or open a database (PGlite boots WebAssembly; createTestDatabase makes one; DuckDB encodes Parquet) spend
// seconds in their hooks on an idle machine and many times that on a loaded one (`npm test` beside other work):
// Jest's default 5 s hook and test timeout makes them fail for no fault of the code. They get the same generous
// timeout as the integration and e2e groups (tools/jest/long-timeout.setup.js), decided here once instead of by a
// number in each file; a spec that needs even longer sets its own, larger, `jest.setTimeout`. Pure unit specs keep
// Jest's default.
const fs = require('node:fs');

const HEAVY_SOURCE =
  /\b(createTestDatabase|open\w*Database|startHttpServer|startTestAgentServer|startTestPlatform|createDuckDbParquetWriterFactory|DuckDBInstance\.create)\s*\(|memory:\/\/|@electric-sql\/pglite/;

const { testPath } = expect.getState();
let heavy = /\.sdk\.spec\.ts$/.test(testPath ?? '');
if (!heavy && testPath) {
  try {
    heavy = HEAVY_SOURCE.test(fs.readFileSync(testPath, 'utf8'));
  } catch {
    heavy = false;
  }
}
if (heavy) require('./long-timeout.setup.js');
