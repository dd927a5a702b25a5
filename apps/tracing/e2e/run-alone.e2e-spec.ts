import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '@platform/http-server';
import { createTestDatabase, type TestDatabase } from '@platform/testing';

const ROOT = path.resolve(__dirname, '../../..');

/** `npx tsx apps/tracing/src/main.ts [args]` as a user runs it; resolves with its exit code and output. */
function run(env: Record<string, string>, args: string[] = [], untilOutput?: RegExp): Promise<{ code: number | null; output: string; stop(): Promise<void> }> {
  return new Promise((resolve) => {
    const child = spawn(path.join(ROOT, 'node_modules/.bin/tsx'), ['apps/tracing/src/main.ts', ...args], {
      cwd: ROOT,
      env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    const exited = new Promise<void>((done) => child.once('exit', () => done()));
    const stop = async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    };
    const collect = (chunk: Buffer) => {
      output += chunk.toString();
      if (untilOutput?.test(output)) resolve({ code: null, output, stop });
    };
    child.stdout.on('data', collect);
    child.stderr.on('data', collect);
    child.on('exit', (code) => resolve({ code, output, stop }));
  });
}

// One service alone, as the README says to run it: on an empty database it stops at once saying what to run;
// `main.ts migrate` applies the migrations; then it starts.
describe('tracing run alone (npx tsx apps/tracing/src/main.ts)', () => {
  let database: TestDatabase;
  let dataDir: string;
  let env: Record<string, string>;

  beforeAll(async () => {
    database = await createTestDatabase();
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tracing-alone-'));
    env = { INTERNAL_SECRET: 'run-alone-secret-0123456789', HOST: '127.0.0.1', PORT: String(await freePort()), GRPC_PORT: '0', DATA_DIR: dataDir, ...(database.url ? { DATABASE_URL: database.url } : {}) };
  });
  afterAll(async () => {
    await database?.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('exits non-zero on an empty database naming `main.cjs migrate` and MIGRATE_ON_START, then starts once migrated', async () => {
    const refused = await run(env);
    expect(refused.code).toBe(1);
    expect(refused.output).toContain('tracing: failed to start: the database has none of its');
    expect(refused.output).toContain('node dist/apps/tracing/main.cjs migrate');
    expect(refused.output).toContain('MIGRATE_ON_START=true');

    expect((await run(env, ['migrate'])).code).toBe(0);
    const started = await run(env, [], /"msg":"started"/);
    try {
      expect((await fetch(`http://127.0.0.1:${env.PORT}/ok`)).status).toBe(200);
    } finally {
      await started.stop();
    }
  });
});
