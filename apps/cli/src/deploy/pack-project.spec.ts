import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { runCli } from '../cli';
import { packFiles, planPack } from './pack-project';

/** A project folder after `agent-platform up` and a dev run: the platform's data beside the user's files. */
function projectWithPlatformData(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pack-project-'));
  const files: Record<string, string> = {
    'langgraph.json': JSON.stringify({ graphs: { agent: './src/agent.ts:graph' }, env: '.env' }),
    'package.json': '{}',
    'src/agent.ts': 'export const graph = 1;\n',
    '.gitignore': 'dist/\n*.log\n',
    'dist/out.js': 'built',
    'debug.log': 'log',
    'nested/.gitignore': 'cache/\n',
    'nested/keep.ts': 'kept',
    'nested/cache/big.bin': 'x',
    '.dockerignore': 'docs\n',
    'docs/notes.md': 'notes',
    '.env': 'OPENAI_API_KEY=sk-secret\n',
    '.env.local': 'A=1\n',
    '.env.example': 'OPENAI_API_KEY=\n',
    'certs/server.pem': '-----BEGIN',
    'certs/server.key': 'key',
    'id_rsa': 'private',
    '.agent-platform/internal-secret': 'secret',
    '.agent-platform/control-plane/PG_VERSION': '17',
    '.langgraph_api/agent-server/PG_VERSION': '17',
    '.data/gateway/PG_VERSION': '17',
    'node_modules/dep/index.js': 'dep',
  };
  for (const [file, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    fs.writeFileSync(path.join(dir, file), text);
  }
  return dir;
}

describe('what agent-platform deploy packs', () => {
  let dir: string;
  beforeEach(() => (dir = projectWithPlatformData()));
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  const kept = ['.dockerignore', '.env.example', '.gitignore', 'langgraph.json', 'nested/.gitignore', 'nested/keep.ts', 'package.json', 'src/agent.ts'];

  it("never the platform's data folders; honours .gitignore (at any depth) and .dockerignore; leaves secret-looking files out", async () => {
    const plan = await planPack(dir, { includeSecrets: false });
    expect(plan.files).toEqual(kept);
    expect(plan.secrets).toEqual(['.env', '.env.local', 'certs/server.key', 'certs/server.pem', 'id_rsa']);
    expect(plan.ignoreNote).toBe('.gitignore and .dockerignore honoured');
    // The archive holds exactly those files.
    const archive = await packFiles(dir, plan.files);
    const listed = execFileSync('tar', ['-tzf', '-'], { input: archive }).toString().trim().split('\n').sort();
    expect(listed).toEqual(kept);
  });

  it('packs the secret-looking files when asked, the data folders still not', async () => {
    const plan = await planPack(dir, { includeSecrets: true });
    expect(plan.secrets).toEqual([]);
    expect(plan.files).toEqual(expect.arrayContaining(['.env', 'certs/server.pem', 'id_rsa']));
    expect(plan.files.filter((f) => /^(\.agent-platform|\.langgraph_api|\.data|node_modules)\//.test(f))).toEqual([]);
  });

  it('deploy --dry-run lists what would be uploaded and what is left out, uploads nothing, needs no key', async () => {
    const out = new PassThrough();
    const err = new PassThrough();
    let printed = '';
    out.on('data', (c: Buffer) => (printed += c.toString()));
    const cwd = process.cwd();
    process.chdir(dir);
    try {
      // An unreachable gateway: a dry run never calls it.
      expect(await runCli(['deploy', '--dry-run', '--gateway', 'http://127.0.0.1:9'], out, err)).toBe(0);
    } finally {
      process.chdir(cwd);
    }
    expect(printed).toContain(`Would upload ${kept.length} files`);
    for (const file of kept) expect(printed).toContain(`    ${file}  (`);
    expect(printed).toMatch(/Left out \(secret-looking; --include-secrets to upload them\):\n {4}\.env\n/);
    expect(printed).not.toContain('internal-secret');
    expect(printed).toContain('Never uploaded: node_modules/, .git/, .langgraph_api/, .agent-platform/, .data/');
  });

  it('says once, without a status, that the gateway cannot be reached', async () => {
    const out = new PassThrough();
    const err = new PassThrough();
    let errors = '';
    err.on('data', (c: Buffer) => (errors += c.toString()));
    out.resume();
    const cwd = process.cwd();
    process.chdir(dir);
    try {
      expect(await runCli(['deploy', '--gateway', 'http://127.0.0.1:9', '--api-key', 'lsv2_sk_x'], out, err)).toBe(1);
    } finally {
      process.chdir(cwd);
    }
    expect(errors).toMatch(/^agent-platform deploy: POST \/v2\/sources\/\S+: cannot reach the gateway at http:\/\/127\.0\.0\.1:9 /);
    expect(errors).not.toContain(': 0 ');
  });
});
