import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** One node of a {@link ScratchNatsCluster}: its ports stay the same across restarts, so do its seeds. */
export interface ScratchNatsNode {
  readonly name: string;
  readonly clientUrl: string;
  readonly monitorUrl: string;
  readonly running: boolean;
}

/** A JetStream cluster of the test's own on loopback (never the shared NATS on 4222). */
export interface ScratchNatsCluster {
  readonly nodes: readonly ScratchNatsNode[];
  /** Every node's client URL, comma-separated: what `NATS_URL` takes. */
  readonly natsUrl: string;
  /** SIGKILLs node `i` (a crash: no lame-duck mode, no goodbye to its peers). */
  kill(i: number): Promise<void>;
  /** Starts node `i` again on its ports and store directory; `extraArgs` are added to its command line (e.g. `--user`). */
  start(i: number, extraArgs?: string[]): Promise<void>;
  /** Waits until every running node reports JetStream healthy and a meta leader is elected. */
  waitHealthy(timeoutMs?: number): Promise<void>;
  /** Index of the node named `serverName` (a stream's `cluster.leader`). */
  indexOf(serverName: string): number;
  /** Kills every node and removes the store directories. */
  stop(): Promise<void>;
}

/** The `nats-server` binary the scratch clusters run: `NATS_SERVER_BIN`, else Debian's package's, else none. */
export function natsServerBinary(): string | undefined {
  const candidates = [process.env.NATS_SERVER_BIN, '/usr/sbin/nats-server', '/usr/bin/nats-server', '/usr/local/bin/nats-server'];
  return candidates.find((path): path is string => Boolean(path && existsSync(path)));
}

function canListen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.unref();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/**
 * A free port below Linux's ephemeral range (32768+): a node restarted after an outage needs its ports again, and a
 * port from the ephemeral range may meanwhile be some outgoing connection's local port.
 */
async function freePort(taken: Set<number>): Promise<number> {
  for (let tries = 0; tries < 200; tries++) {
    const port = 20_000 + Math.floor(Math.random() * 12_000);
    if (!taken.has(port) && (await canListen(port))) {
      taken.add(port);
      return port;
    }
  }
  throw new Error('no free port in 20000-31999');
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function getJson(url: string): Promise<Record<string, unknown> | undefined> {
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(1_000) });
    return res.ok ? ((await res.json()) as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

interface NodeState extends ScratchNatsNode {
  clientPort: number;
  clusterPort: number;
  monitorPort: number;
  storeDir: string;
  child?: ChildProcess;
}

const alive = new Set<ChildProcess>();
process.once('exit', () => alive.forEach((child) => child.kill('SIGKILL')));

/**
 * Starts `size` (default 3) `nats-server -js` nodes routed to each other on free loopback ports, each with its own
 * store directory and monitoring port, and resolves once JetStream is healthy on all of them. A size of 1 is one
 * standalone server (for faults of a single server, e.g. a restart with other settings).
 */
export async function startScratchNatsCluster(options: { size?: number; binary?: string } = {}): Promise<ScratchNatsCluster> {
  const binary = options.binary ?? natsServerBinary();
  if (!binary) throw new Error('nats-server is not installed (apt-get install nats-server, or set NATS_SERVER_BIN)');
  const size = options.size ?? 3;
  const root = await mkdtemp(join(tmpdir(), 'scratch-nats-'));
  const clusterName = `scratch_${process.pid}_${Date.now().toString(36)}`;
  const nodes: NodeState[] = [];
  const taken = new Set<number>();
  for (let i = 0; i < size; i++) {
    const [clientPort, clusterPort, monitorPort] = [await freePort(taken), await freePort(taken), await freePort(taken)];
    nodes.push({
      name: `n${i}`,
      clientPort,
      clusterPort,
      monitorPort,
      clientUrl: `nats://127.0.0.1:${clientPort}`,
      monitorUrl: `http://127.0.0.1:${monitorPort}`,
      storeDir: join(root, `n${i}`),
      get running() {
        return Boolean(this.child && this.child.exitCode === null && this.child.signalCode === null);
      },
    });
  }
  const routes = nodes.map((n) => `nats://127.0.0.1:${n.clusterPort}`).join(',');

  const start = async (i: number, extraArgs: string[] = []) => {
    const node = nodes[i];
    if (node.running) return;
    const args = [...extraArgs, '-js', '-n', node.name, '-a', '127.0.0.1', '-p', String(node.clientPort), '-m', String(node.monitorPort)];
    args.push('-sd', node.storeDir);
    // One node runs standalone: a cluster of one never elects a JetStream meta leader.
    if (size > 1) args.push('--cluster_name', clusterName, '--cluster', `nats://127.0.0.1:${node.clusterPort}`, '--routes', routes);
    const child = spawn(binary, args, { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr = (stderr + chunk.toString()).slice(-4_000);
    });
    alive.add(child);
    child.once('exit', () => alive.delete(child));
    node.child = child;
    const deadline = Date.now() + 10_000;
    while (!(await getJson(`${node.monitorUrl}/varz`))) {
      if (!node.running) throw new Error(`nats-server ${node.name} exited at start: ${stderr}`);
      if (Date.now() > deadline) throw new Error(`nats-server ${node.name} did not listen within 10 s: ${stderr}`);
      await sleep(50);
    }
  };
  const kill = async (i: number) => {
    const child = nodes[i].child;
    if (!child || !nodes[i].running) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;
  };
  const waitHealthy = async (timeoutMs = 30_000) => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const running = nodes.filter((n) => n.running);
      const checks = await Promise.all(
        running.map(async (n) => {
          const health = await getJson(`${n.monitorUrl}/healthz`);
          const jsz = await getJson(`${n.monitorUrl}/jsz`);
          const meta = jsz?.meta_cluster as { leader?: string } | undefined;
          return health?.status === 'ok' && (size === 1 || Boolean(meta?.leader));
        }),
      );
      if (checks.every(Boolean)) return;
      if (Date.now() > deadline) throw new Error(`scratch NATS cluster not healthy within ${timeoutMs} ms`);
      await sleep(100);
    }
  };

  try {
    await Promise.all(nodes.map((_, i) => start(i)));
    await waitHealthy();
  } catch (err) {
    await Promise.all(nodes.map((_, i) => kill(i)));
    await rm(root, { recursive: true, force: true });
    throw err;
  }
  return {
    nodes,
    natsUrl: nodes.map((n) => n.clientUrl).join(','),
    kill,
    start,
    waitHealthy,
    indexOf: (serverName) => nodes.findIndex((n) => n.name === serverName),
    async stop() {
      await Promise.all(nodes.map((_, i) => kill(i)));
      await rm(root, { recursive: true, force: true });
    },
  };
}
