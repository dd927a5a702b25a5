import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parseEnv } from 'node:util';
import { UsageError } from '../usage-error';

/** Never uploaded: dependencies (the build installs them), VCS data, the dev server's data, local secrets. */
const EXCLUDED = ['node_modules', '.git', '.langgraph_api', '.data', '.env', '.env.*'];

function capture(command: string, args: string[], cwd: string): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    let err = '';
    child.stdout.on('data', (c: Buffer) => out.push(c));
    child.stderr.on('data', (c: Buffer) => (err += c.toString()));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve(Buffer.concat(out)) : reject(new UsageError(`deploy: ${command} ${args[0]} failed: ${err.trim()}`))));
  });
}

/** The project as a .tar.gz: its folder as it is, or its last commit with `gitHead`. */
export function packProject(projectDir: string, gitHead: boolean): Promise<Buffer> {
  if (gitHead) return capture('git', ['archive', '--format=tar.gz', 'HEAD'], projectDir);
  return capture('tar', ['-czf', '-', ...EXCLUDED.map((e) => `--exclude=${e}`), '.'], projectDir);
}

/** The variables of the env file langgraph.json names (`"env": ".env"`), sent as the deployment's secrets. */
export function projectSecrets(configPath: string): { name: string; value: string }[] {
  const config = JSON.parse(readFileSync(configPath, 'utf8')) as { env?: unknown };
  if (typeof config.env !== 'string') return [];
  let text: string;
  try {
    text = readFileSync(path.resolve(path.dirname(configPath), config.env), 'utf8');
  } catch {
    return [];
  }
  return Object.entries(parseEnv(text))
    .filter((e): e is [string, string] => e[1] !== undefined && /^[A-Za-z_][A-Za-z0-9_]*$/.test(e[0]))
    .map(([name, value]) => ({ name, value }))
    .sort((a, b) => a.name.localeCompare(b.name));
}
