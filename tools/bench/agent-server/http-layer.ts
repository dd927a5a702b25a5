// What the HTTP layer alone costs per stateless `runs.wait`: the same request (the official SDK's, gateway-signed)
// answered with the same canned result by (a) this server's express stack — createHttpApp's middleware (request id,
// access log and metrics, gateway signature, body limits, JSON body) and a router route doing what the wait route
// does before and after the run (validation, headers at once, JSON when done) — and (b) a bare node:http handler
// doing the least of it (read and parse the body, check the signature, validate, answer). No run, no database: the
// difference is what a leaner framework than express could save per run, at most.
//   npx tsx tools/bench/agent-server/http-layer.ts [--requests=1000] [--concurrency=50] [--rounds=8] [--baseline=<checkout>]
// The servers take turns, `--requests` each, `--rounds` times; the totals are what to compare (on a busy machine one
// turn's figure moves a lot). `--baseline=<dir>`: the express stack of another checkout too (copy this file there
// first). BENCH_PROFILE=<dir>: CPU profiles of the servers.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import { Client } from '@langchain/langgraph-sdk';
import { Router, type Express } from 'express';
import { runCreateSchema } from '@platform/agent-server-run-records';
import { verifyIdentity } from '@platform/identity';
import { createHttpApp, freePort, MiB, parseRequest, startHttpServer } from '@platform/http-server';
import { createLogger } from '@platform/logging';
import { processTreeCpuSeconds } from '@platform/testing';
import { jsonWhenDone, runLocations } from '../../../apps/agent-server/src/http/common/run-responses';
import { intOption, option } from '../options';
import { gatewayHeaders, stop, waitForOk } from './servers';

const SECRET = process.env.HTTP_LAYER_SECRET ?? `bench-${randomUUID()}`;
const output = (input: unknown) => {
  const messages = (input as { messages?: { content: string }[] } | undefined)?.messages ?? [];
  return JSON.stringify({ messages: [...messages, { type: 'ai', content: `echo: ${messages.at(-1)?.content ?? ''}` }] });
};

function expressServer(): Express {
  const router = Router();
  router.post('/runs/wait', async (req, res) => {
    const request = parseRequest(runCreateSchema, req.body ?? {});
    const runId = randomUUID();
    res.set(runLocations(runId, runId, true));
    await jsonWhenDone(res, Promise.resolve(output(request.input)), 10_000, { headersAtOnce: true });
  });
  const { app } = createHttpApp({
    service: 'http-layer',
    logger: createLogger({ service: 'http-layer', level: 'warn' }),
    identity: { secret: SECRET },
    bodyLimits: { defaultBytes: 10 * MiB },
    routes: (a) => a.use(router),
  });
  return app;
}

function bareServer(): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    if (req.url === '/ok') {
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
      return;
    }
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const requestId = String(req.headers['x-request-id'] ?? '');
      if (!verifyIdentity(SECRET, req.headers, requestId).ok) {
        res.writeHead(401).end();
        return;
      }
      const request = parseRequest(runCreateSchema, JSON.parse(Buffer.concat(chunks).toString('utf8')));
      const runId = randomUUID();
      res.writeHead(200, { 'content-type': 'application/json', 'x-request-id': requestId, ...runLocations(runId, runId, true) });
      res.flushHeaders();
      res.end(output(request.input));
    });
  };
}

async function serve(kind: string): Promise<void> {
  const port = intOption('port', 1);
  // As the services listen (an express app's requests born with its prototypes).
  await startHttpServer(kind === 'express' ? expressServer() : bareServer(), '127.0.0.1', port);
  // Exit normally on SIGTERM, so that --cpu-prof writes its profile.
  process.on('SIGTERM', () => process.exit(0));
}

async function start(kind: string, root?: string): Promise<{ url: string; child: ChildProcess }> {
  const port = await freePort();
  const script = root ? path.join(root, 'tools/bench/agent-server/http-layer.ts') : __filename;
  // BENCH_PROFILE=<dir>: a V8 CPU profile of each server there.
  const profile = process.env.BENCH_PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROFILE}`] : [];
  const child = spawn(process.execPath, [...process.execArgv, ...profile, script, `--serve=${kind}`, `--port=${port}`], {
    cwd: root ?? process.cwd(),
    env: { ...process.env, HTTP_LAYER_SECRET: SECRET },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  await waitForOk(url, child, kind);
  return { url, child };
}

async function drive(url: string, requests: number, concurrency: number): Promise<void> {
  let next = 0;
  const clients = Array.from({ length: concurrency }, () => new Client({ apiUrl: url, defaultHeaders: gatewayHeaders(SECRET) }));
  await Promise.all(
    clients.map(async (client) => {
      while (next < requests) {
        const i = next++;
        const result = (await client.runs.wait(null, 'echo', { input: { messages: [{ role: 'user', content: `hello ${i}` }] } })) as { messages: { content: string }[] };
        if (result.messages.at(-1)?.content !== `echo: hello ${i}`) throw new Error(`unexpected result ${JSON.stringify(result)}`);
      }
    }),
  );
}

async function main(): Promise<void> {
  const serveKind = option('serve', '');
  if (serveKind) return serve(serveKind);
  const requests = intOption('requests', 1000);
  const concurrency = intOption('concurrency', 50);
  const rounds = intOption('rounds', 8);
  const baseline = option('baseline', '');
  const servers: Record<string, { url: string; child: ChildProcess }> = { express: await start('express'), bare: await start('bare') };
  if (baseline) servers['express (baseline)'] = await start('express', path.resolve(baseline));
  const totals = new Map<string, { cpu: number; seconds: number; requests: number }>();
  try {
    for (const { url } of Object.values(servers)) await drive(url, 500, concurrency); // warm-up
    for (let round = 0; round < rounds; round++) {
      for (const [kind, { url, child }] of Object.entries(servers)) {
        const before = processTreeCpuSeconds(child.pid);
        const started = performance.now();
        await drive(url, requests, concurrency);
        const seconds = (performance.now() - started) / 1000;
        const cpu = processTreeCpuSeconds(child.pid) - before;
        const total = totals.get(kind) ?? { cpu: 0, seconds: 0, requests: 0 };
        totals.set(kind, { cpu: total.cpu + cpu, seconds: total.seconds + seconds, requests: total.requests + requests });
        console.log(`${kind.padEnd(20)} ${(requests / seconds).toFixed(0).padStart(6)} req/s  ${((cpu * 1000) / requests).toFixed(3)} ms server CPU per runs.wait`);
      }
    }
    console.log('\ntotals:');
    for (const [kind, t] of totals) {
      console.log(`${kind.padEnd(20)} ${(t.requests / t.seconds).toFixed(0).padStart(6)} req/s  ${((t.cpu * 1000) / t.requests).toFixed(3)} ms server CPU per runs.wait`);
    }
  } finally {
    await Promise.all(Object.values(servers).map(({ child }) => stop(child)));
  }
}

main().catch((err) => {
  console.error(err);
  process.exitCode = 1;
});
