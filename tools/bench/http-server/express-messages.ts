// What express's prototype change costs per request: one bare express route (`GET /x`, a fixed JSON answer) served
// (a) as Node makes requests and responses, express then giving them its prototypes (`Object.setPrototypeOf` in
// `app.handle`), and (b) born with the app's prototypes (`expressMessages`, as every service's server now makes them),
// each in a process of its own, driven in turns by keep-alive clients; CPU per request of each server from
// process.cpuUsage.
//   npx tsx tools/bench/http-server/express-messages.ts [--requests=10000] [--concurrency=20] [--rounds=4]
import { fork, type ChildProcess } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { expressMessages } from '@platform/http-server';
import { intOption, option } from '../options';

const KINDS = { 'as Node makes them': 'plain', 'born with the prototypes': 'born' } as const;

function serve(kind: string): void {
  const app = express();
  app.disable('x-powered-by');
  app.get('/x', (_req, res) => {
    res.setHeader('content-type', 'application/json');
    res.end('{"ok":true}');
  });
  const server = kind === 'born' ? http.createServer(expressMessages(app), app) : http.createServer(app);
  server.listen(0, '127.0.0.1', () => process.send?.({ port: (server.address() as AddressInfo).port }));
  process.on('message', () => {
    const used = process.cpuUsage();
    process.send?.({ cpu: used.user + used.system });
  });
}

async function drive(): Promise<void> {
  const [requests, concurrency, rounds] = [intOption('requests', 10_000), intOption('concurrency', 20), intOption('rounds', 4)];
  const servers = await Promise.all(
    Object.entries(KINDS).map(
      ([name, kind]) =>
        new Promise<{ name: string; port: number; child: ChildProcess }>((resolve) => {
          const child = fork(__filename, [`--serve=${kind}`], { execArgv: process.execArgv });
          child.once('message', (m) => resolve({ name, port: (m as { port: number }).port, child }));
        }),
    ),
  );
  const cpuMicros = (child: ChildProcess) =>
    new Promise<number>((resolve) => {
      child.once('message', (m) => resolve((m as { cpu: number }).cpu));
      child.send('cpu');
    });
  const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });
  const get = (port: number) =>
    new Promise<void>((resolve, reject) => {
      http
        .get({ host: '127.0.0.1', port, path: '/x', agent }, (res) => {
          if (res.statusCode !== 200) reject(new Error(`answered ${res.statusCode}`));
          res.resume().on('end', resolve);
        })
        .on('error', reject);
    });
  const load = async (port: number, n: number) => {
    let sent = 0;
    await Promise.all(Array.from({ length: concurrency }, async () => {
      while (sent++ < n) await get(port);
    }));
  };
  const totals = new Map<string, number>();
  try {
    for (const { port } of servers) await load(port, requests); // warm-up
    for (let round = 0; round < rounds; round++) {
      for (const { name, port, child } of servers) {
        const before = await cpuMicros(child);
        await load(port, requests);
        const micros = ((await cpuMicros(child)) - before) / requests;
        totals.set(name, (totals.get(name) ?? 0) + micros);
        console.log(`round ${round + 1}  ${name.padEnd(26)} ${micros.toFixed(1).padStart(6)} µs CPU per request`);
      }
    }
    console.log('\nmean over the rounds:');
    for (const [name, total] of totals) console.log(`${name.padEnd(26)} ${(total / rounds).toFixed(1).padStart(6)} µs CPU per request`);
  } finally {
    agent.destroy();
    for (const { child } of servers) child.kill();
  }
}

const kind = option('serve', '');
if (kind) serve(kind);
else
  drive().catch((err) => {
    console.error(err);
    process.exitCode = 1;
  });
