#!/usr/bin/env node
// Scaling runs on a machine with more cores: the export benchmark with 1, 3 and 6 workers, the Agent Server
// benchmark with 1, 2 and 4 replicas (client processes scaled with them, the reference beside one replica), and the
// gateway benchmark — one after another on one Postgres and one NATS. Without DATABASE_URL / NATS_URL it starts its
// own (the embedded Postgres and nats-server that `npm test` uses, tools/test/test-services.mjs).
//   node tools/bench/scaling/run.mjs [--only=export,agent-server,gateway] [--export-runs=200000] [--export-workers=1,3,6]
//     [--replicas=1,2,4] [--agent-runs=4000] [--gateway-requests=10000] [--out=<dir>]
// Each benchmark's output is printed and, with --out, written to <dir>/<bench>.txt; the machine's description first.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startTestServices } from '../../test/test-services.mjs';

const root = path.resolve(import.meta.dirname, '../../..');
const arg = (name, fallback) => process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? fallback;
const only = arg('only', 'export,agent-server,gateway').split(',');
const outDir = arg('out', '');
const replicas = arg('replicas', '1,2,4').split(',').map(Number);

function machine() {
  const cpus = os.cpus();
  return [
    `date: ${new Date().toISOString()}`,
    `cpus: ${cpus.length} × ${cpus[0]?.model ?? '?'}`,
    `memory: ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB`,
    `load: ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}`,
    `node: ${process.version}`,
  ].join('\n');
}

/** Runs one benchmark script with tsx, its output shown and kept. */
function bench(name, script, args) {
  const tsx = path.join(root, 'node_modules', '.bin', 'tsx');
  const line = `${path.relative(root, script)} ${args.join(' ')}`;
  console.log(`\n==> ${name}: ${line}`);
  const out = outDir ? fs.createWriteStream(path.join(outDir, `${name}.txt`)) : undefined;
  out?.write(`${machine()}\n$ npx tsx ${line}\n\n`);
  return new Promise((resolve) => {
    const child = spawn(tsx, [script, ...args], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    for (const stream of [child.stdout, child.stderr]) {
      stream.on('data', (chunk) => {
        process.stdout.write(chunk);
        out?.write(chunk);
      });
    }
    child.on('close', (code) => {
      out?.end(`\n(exit ${code})\n`);
      resolve(code);
    });
  });
}

if (outDir) fs.mkdirSync(outDir, { recursive: true });
console.log(machine());
const stop = await startTestServices(root);
let failed = 0;
try {
  if (only.includes('export')) {
    const code = await bench('export', path.join(root, 'tools/bench/export/run.ts'), [
      `--runs=${arg('export-runs', '200000')}`,
      `--workers=${arg('export-workers', '1,3,6')}`,
      '--days=6',
      '--reps=1',
    ]);
    failed += code === 0 ? 0 : 1;
  }
  if (only.includes('agent-server')) {
    for (const n of replicas) {
      // The reference (one process, in-memory) beside one replica only: it does not scale out.
      const runs = n === 1 ? Math.min(2000, Number(arg('agent-runs', '4000'))) : Number(arg('agent-runs', '4000'));
      const code = await bench(`agent-server-${n}`, path.join(root, 'tools/bench/agent-server/run.ts'), [
        '--sequential=100',
        `--concurrent-runs=${runs}`,
        `--concurrency=${32 * n}`,
        `--replicas=${n}`,
        `--client-processes=${2 * n}`,
        ...(n === 1 ? [] : ['--no-reference']),
      ]);
      failed += code === 0 ? 0 : 1;
    }
  }
  if (only.includes('gateway')) {
    const code = await bench('gateway', path.join(root, 'tools/bench/gateway/run.ts'), [
      `--requests=${arg('gateway-requests', '10000')}`,
      '--rounds=2',
      '--bare-proxy',
    ]);
    failed += code === 0 ? 0 : 1;
  }
} finally {
  await stop();
}
process.exitCode = failed ? 1 : 0;
