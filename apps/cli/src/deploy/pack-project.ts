import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, type Dirent } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseEnv } from 'node:util';
import { UsageError } from '../usage-error';

/** Never uploaded, whatever the ignore files say: dependencies (the build installs them), VCS data, platform data. */
export const PLATFORM_FOLDERS = ['node_modules', '.git', '.langgraph_api', '.agent-platform', '.data'];

/** Local secrets: left out unless --include-secrets (an env file's variables go as the deployment's secrets). */
const SECRET_LOOKING = [/^\.env(\..+)?$/, /\.pem$/, /\.key$/, /^id_(rsa|dsa|ecdsa|ed25519)/, /\.p12$/, /\.pfx$/];
const SECRET_EXAMPLES = /^\.env\.(example|sample|template|defaults)$/;
export const isSecretLooking = (file: string) => {
  const name = path.basename(file);
  return !SECRET_EXAMPLES.test(name) && SECRET_LOOKING.some((p) => p.test(name));
};

export interface PackPlan {
  /** Paths relative to the project folder, sorted. */
  files: string[];
  /** Secret-looking files left out (pack them with --include-secrets). */
  secrets: string[];
  /** How the ignore files were read, for the listing. */
  ignoreNote: string;
}

function capture(command: string, args: string[], cwd: string, input?: Buffer): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, stdio: [input ? 'pipe' : 'ignore', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    let err = '';
    child.stdout?.on('data', (c: Buffer) => out.push(c));
    child.stderr?.on('data', (c: Buffer) => (err += c.toString()));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve(Buffer.concat(out)) : reject(new UsageError(`deploy: ${command} ${args[0]} failed: ${err.trim()}`))));
    child.stdin?.end(input);
  });
}

/**
 * The project's files less what its `.gitignore` files (at any depth) and its `.dockerignore` (the reference
 * langgraph-cli builds the folder with `docker build`, which honours it) leave out, read by git itself through a
 * scratch repository of its own (the folder need not be one). Without git: every file.
 */
async function listFiles(projectDir: string): Promise<{ files: string[]; note: string }> {
  const scratch = mkdtempSync(path.join(os.tmpdir(), 'agent-platform-pack-'));
  try {
    await capture('git', ['init', '-q', '--bare', scratch], projectDir);
    const dockerignore = path.join(projectDir, '.dockerignore');
    const args = [`--git-dir=${scratch}`, `--work-tree=${projectDir}`, '-c', 'core.excludesFile=/dev/null', 'ls-files', '--others', '--exclude-standard', '-z'];
    if (existsSync(dockerignore)) args.push(`--exclude-from=${dockerignore}`);
    const listed = (await capture('git', args, projectDir)).toString('utf8').split('\0').filter(Boolean);
    // A nested repository is listed as `dir/`: its files are not part of this project's upload.
    return { files: listed.filter((f) => !f.endsWith('/')), note: `.gitignore${existsSync(dockerignore) ? ' and .dockerignore' : ''} honoured` };
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    const files = (readdirSync(projectDir, { recursive: true, withFileTypes: true }) as Dirent[])
      .filter((d) => d.isFile())
      .map((d) => path.relative(projectDir, path.join(d.parentPath, d.name)));
    return { files, note: 'git not found: .gitignore not read' };
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

/** What `deploy` uploads of the folder: its files less ignored ones, platform data folders and (unless asked) secrets. */
export async function planPack(projectDir: string, options: { includeSecrets: boolean }): Promise<PackPlan> {
  const { files, note } = await listFiles(projectDir);
  const kept = files.filter((f) => !f.split('/').some((segment) => PLATFORM_FOLDERS.includes(segment)));
  const secrets = options.includeSecrets ? [] : kept.filter(isSecretLooking);
  return { files: kept.filter((f) => !secrets.includes(f)).sort(), secrets: secrets.sort(), ignoreNote: note };
}

/** These files of the folder (as they are) as a .tar.gz. */
export function packFiles(projectDir: string, files: string[]): Promise<Buffer> {
  return capture('tar', ['-czf', '-', '--no-recursion', '--null', '-T', '-'], projectDir, Buffer.from(files.map((f) => `${f}\0`).join('')));
}

/** The project's last commit as a .tar.gz (`--git-head`). */
export function packGitHead(projectDir: string): Promise<Buffer> {
  return capture('git', ['archive', '--format=tar.gz', 'HEAD'], projectDir);
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
