// CPU per access-log line, as every service writes one per request (@platform/http-server's `accessLog`), each
// variant in a child process of its own whose stdout is a file, interleaved over `--rounds` (median printed):
// - `metric only`: the duration histogram alone (and the loop), no line;
// - the service logger (`createLogger`, with its redaction paths) and `withoutRedaction` of it, writing either to
//   pino's default destination (an asynchronous SonicBoom on fd 1: each line handed to libuv's thread pool) or to
//   Node's `process.stdout` (what `createLogger` uses by default: synchronous for files and pipes on Linux).
// `--per-turn` lines are written per event-loop turn (1: each request in a turn of its own, as at light load; 20:
// many answers per turn, as when saturated).
//   npx tsx tools/bench/gateway/access-log.ts [--lines=100000] [--rounds=3] [--per-turn=1,20]
import { spawnSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { createMetrics } from '@platform/http-server';
import { createLogger, withoutRedaction } from '@platform/logging';
import { intOption, option } from '../options';

const VARIANTS = [
  'metric only',
  'service logger, pino default destination',
  'withoutRedaction, pino default destination',
  'service logger, process.stdout',
  'withoutRedaction, process.stdout',
] as const;
type Variant = (typeof VARIANTS)[number];

/** In the child: writes `lines` access lines the way `accessLog` does and prints µs of CPU per line on stderr. */
function measure(variant: Variant, lines: number, perTurn: number): void {
  const pinoDefault = variant.endsWith('pino default destination') ? pino.destination({ dest: 1, sync: false }) : undefined;
  const metrics = createMetrics('bench');
  const service = createLogger({ service: 'bench', destination: pinoDefault });
  const logger = variant === 'metric only' ? undefined : variant.startsWith('withoutRedaction') ? withoutRedaction(service) : service;
  const line = (i: number) => {
    metrics.httpDuration.observe({ method: 'GET', route: '/deployments/:id/*', status: '200' }, 0.012);
    logger?.info({ request_id: `0193a7c2-5b1e-7c3d-9f00-${String(i).padStart(12, '0')}`, method: 'GET', path: '/deployments/123e4567-e89b-12d3-a456-426614174000/assistants/9b2d', status: 200, duration_ms: 12 }, 'request');
  };
  let written = 0;
  const started = process.cpuUsage();
  const turn = () => {
    for (let k = 0; k < perTurn && written < lines; k++) line(written++);
    if (written < lines) return void setImmediate(turn);
    pinoDefault?.flushSync();
    const used = process.cpuUsage(started);
    process.stderr.write(`${((used.user + used.system) / lines).toFixed(2)}\n`);
  };
  turn();
}

function main(): void {
  const lines = intOption('lines', 100_000);
  const rounds = intOption('rounds', 3);
  const perTurns = option('per-turn', '1,20').split(',').map(Number);
  const dir = mkdtempSync(path.join(tmpdir(), 'access-log-'));
  try {
    console.log(`µs of CPU per request (${lines} lines per run to a file; median of ${rounds} interleaved rounds)\n`);
    console.log(`| lines per turn | ${VARIANTS.join(' | ')} |\n|---:|${VARIANTS.map(() => '---:').join('|')}|`);
    for (const perTurn of perTurns) {
      const results = new Map<Variant, number[]>(VARIANTS.map((v) => [v, []]));
      for (let round = 0; round < rounds; round++) {
        for (const variant of VARIANTS) {
          const out = openSync(path.join(dir, `${round}.log`), 'w');
          try {
            const child = spawnSync(process.execPath, [...process.execArgv, __filename, '--child', variant, String(lines), String(perTurn)], { stdio: ['ignore', out, 'pipe'], encoding: 'utf8' });
            if (child.status !== 0) throw new Error(`${variant}: ${child.stderr}`);
            results.get(variant)?.push(Number(child.stderr.trim()));
          } finally {
            closeSync(out);
          }
        }
      }
      const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
      console.log(`| ${perTurn} | ${VARIANTS.map((v) => median(results.get(v) ?? []).toFixed(2)).join(' | ')} |`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const child = process.argv.indexOf('--child');
if (child === -1) main();
else {
  const [variant, lines, perTurn] = process.argv.slice(child + 1);
  measure(variant as Variant, Number(lines), Number(perTurn));
}
