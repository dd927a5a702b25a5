#!/usr/bin/env node
// `npm test`: every jest project (unit, integration, e2e) in one run, then one closing line
// `N passed, N failed, N skipped`. Exits non-zero when a test or a suite fails, or when no test ran at all.
// Extra arguments go to jest, e.g. `npm test -- --selectProjects unit`.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '../..');
const resultsFile = path.join(root, 'tmp', 'jest-results.json');
fs.mkdirSync(path.dirname(resultsFile), { recursive: true });
fs.rmSync(resultsFile, { force: true });

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
  process.exit(exitCode || 1);
}
const brokenSuites = results.numRuntimeErrorTestSuites ?? 0;
const passed = results.numPassedTests;
const failed = results.numFailedTests + brokenSuites;
const skipped = results.numPendingTests + (results.numTodoTests ?? 0);
if (brokenSuites) console.log(`\n${brokenSuites} test file(s) failed to run (counted as failures)`);
console.log(`\n${passed} passed, ${failed} failed, ${skipped} skipped`);
if (passed + failed === 0) {
  console.error('no test ran');
  process.exit(1);
}
process.exit(failed > 0 ? exitCode || 1 : exitCode);
