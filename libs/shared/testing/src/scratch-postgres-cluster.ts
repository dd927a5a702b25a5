import { execFile } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const DEFAULT_BIN_DIR = '/usr/lib/postgresql/15/bin';

/**
 * A Postgres server of a test's own (initdb on a temporary directory, a free port), which the test may restart or
 * stop at will: fault tests must never touch the shared server other work uses.
 */
export interface ScratchPostgresCluster {
  /** `postgres://postgres@127.0.0.1:<port>/postgres` (trust auth). */
  readonly url: string;
  readonly port: number;
  /** `pg_ctl restart -m <mode>`: `fast` ends sessions with 57P01, `immediate` kills them without a word. */
  restart(mode?: 'fast' | 'immediate' | 'smart'): Promise<void>;
  stop(mode?: 'fast' | 'immediate' | 'smart'): Promise<void>;
  start(): Promise<void>;
  /** Stops the server (immediate) and removes its directory. */
  destroy(): Promise<void>;
}

function binDir(): string | undefined {
  const dir = process.env.PG_BIN_DIR?.trim() || DEFAULT_BIN_DIR;
  return fs.existsSync(path.join(dir, 'initdb')) && fs.existsSync(path.join(dir, 'pg_ctl')) ? dir : undefined;
}

/**
 * Whether a scratch cluster can be started here. Missing binaries print a `SKIPPED:` line and return false, unless
 * `REQUIRE_SERVICES=1`, where they throw.
 */
export function scratchPostgresAvailable(what: string): boolean {
  if (binDir()) return true;
  const reason = `${what} needs initdb and pg_ctl (set PG_BIN_DIR, default ${DEFAULT_BIN_DIR})`;
  if (process.env.REQUIRE_SERVICES === '1') throw new Error(`${reason}, and REQUIRE_SERVICES=1 requires them`);
  process.stderr.write(`SKIPPED: ${reason}\n`);
  return false;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/**
 * Starts a scratch cluster (`initdb` + `pg_ctl start`). Postgres refuses to run as root: as root the binaries run as
 * the `postgres` user on a directory it owns.
 */
export async function startScratchPostgresCluster(): Promise<ScratchPostgresCluster> {
  const bin = binDir();
  if (!bin) throw new Error(`initdb/pg_ctl not found (PG_BIN_DIR, default ${DEFAULT_BIN_DIR})`);
  const asRoot = process.getuid?.() === 0;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'scratch-pg-'));
  fs.chmodSync(dir, 0o755);
  const data = path.join(dir, 'data');
  if (asRoot) await run('chown', ['postgres:postgres', dir]);
  const pg = (tool: string, args: string[]) =>
    asRoot ? run('runuser', ['-u', 'postgres', '--', path.join(bin, tool), ...args]) : run(path.join(bin, tool), args);
  await pg('initdb', ['-D', data, '-U', 'postgres', '--auth=trust', '--no-sync', '-E', 'UTF8']);
  const port = await freePort();
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200`;
  const log = path.join(dir, 'server.log');
  const ctl = async (args: string[]) => {
    try {
      await pg('pg_ctl', ['-D', data, '-l', log, '-w', '-t', '60', ...args]);
    } catch (err) {
      // pg_ctl says only "could not start server": the reason is in the server's log.
      const tail = fs.existsSync(log) ? fs.readFileSync(log, 'utf8').split('\n').slice(-15).join('\n') : '';
      throw new Error(`${(err as Error).message}\nserver.log:\n${tail}`);
    }
  };
  const start = async () => {
    await ctl(['-o', options, 'start']);
  };
  await start();
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    port,
    restart: async (mode = 'fast') => {
      await ctl(['-m', mode, '-o', options, 'restart']);
    },
    stop: async (mode = 'fast') => {
      await ctl(['-m', mode, 'stop']);
    },
    start,
    destroy: async () => {
      await ctl(['-m', 'immediate', 'stop']).catch(() => undefined);
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
