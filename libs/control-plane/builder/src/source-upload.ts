import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Transform, type Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';
import { InputError } from '@platform/errors';

/** A deployment name as a directory: what `POST /v2/sources/{name}` accepts. */
const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/;

export interface SourceUpload {
  /** Where uploaded sources are kept: `<root>/<tenant>/<name>`, one git repository per deployment name. */
  root: string;
  tenantId: string;
  name: string;
  /** The project's `.tar.gz` (its own size limited by the caller). */
  archive: Readable;
  /** Largest unpacked tar accepted: more is refused (PayloadTooLargeError) while it streams in. */
  maxUnpackedBytes: number;
  /** The error for an upload over the limit (the transport's "too large"); default an InputError. */
  tooLarge?: (message: string) => Error;
}

export interface StoredSource {
  /** The repository to deploy from (`source_config.repo_url`). */
  repoUrl: string;
  /** The commit holding this upload (`source_revision_config.repo_ref`). */
  commitSha: string;
}

const locks = new Map<string, Promise<unknown>>();

/** The upload's own failure (too large, not gzip, cut short), whenever it happens. */
interface UploadFailure {
  error?: Error;
  broken?: Promise<never>;
}

function run(command: string, args: string[], cwd: string, input?: Readable, broken?: Promise<never>): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, stdio: [input ? 'pipe' : 'ignore', 'pipe', 'pipe'], env: { PATH: process.env.PATH, HOME: cwd, GIT_CONFIG_NOSYSTEM: '1' } });
    let output = '';
    child.stdout?.on('data', (c: Buffer) => (output += c.toString()));
    child.stderr?.on('data', (c: Buffer) => (output += c.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, output: output.trim() }));
    if (input && child.stdin) {
      // The upload's own failure (too large, cut short) wins over tar's complaint about a truncated archive.
      broken?.catch((err: unknown) => {
        child.kill('SIGKILL');
        reject(err);
      });
      child.stdin.on('error', () => undefined);
      input.pipe(child.stdin);
    }
  });
}

/** The archive gunzipped, held to `maxBytes`; every stage's error ends up on the returned stream. */
function unpacked(archive: Readable, maxBytes: number, tooLarge: (message: string) => Error): Readable {
  let seen = 0;
  let over: Error | undefined;
  const limit = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      seen += chunk.length;
      if (seen > maxBytes) over ??= tooLarge(`The unpacked upload is larger than ${maxBytes} bytes`);
      done(over ?? null, chunk);
    },
  });
  const gunzip = createGunzip();
  gunzip.on('error', (err) => limit.destroy(new InputError(`The upload is not a gzip archive: ${err.message}`)));
  archive.on('error', (err) => limit.destroy(err));
  archive.pipe(gunzip).pipe(limit);
  return limit;
}

async function git(dir: string, ...args: string[]): Promise<string> {
  const { code, output } = await run('git', ['-c', 'user.name=agent-platform', '-c', 'user.email=deploy@agent-platform.local', ...args], dir);
  if (code !== 0) throw new Error(`git ${args[0]} failed: ${output}`);
  return output;
}

/**
 * Stores an uploaded project as the next commit of its deployment's repository (made on the first upload), so it
 * deploys like any git source: the same build, the same validation, and each upload a revision of its own.
 */
export async function storeSourceUpload(upload: SourceUpload): Promise<StoredSource> {
  if (!NAME.test(upload.name)) throw new InputError(`Source name '${upload.name}' must be 1-100 letters, digits, '.', '_' or '-'`);
  // The upload may fail (too large, not gzip) while the repository is still being prepared: keep that error.
  const failure: UploadFailure = {};
  const tooLarge = upload.tooLarge ?? ((message: string) => new InputError(message));
  const tar = unpacked(upload.archive, upload.maxUnpackedBytes, tooLarge);
  // \`on\`, not \`once\`: a failing pipeline may report more than one error, and none may go unheard.
  failure.broken = new Promise<never>((_, reject) => tar.on('error', (err) => reject((failure.error ??= err))));
  failure.broken.catch(() => undefined);
  const dir = path.join(path.resolve(upload.root), upload.tenantId, upload.name);
  const previous = locks.get(dir) ?? Promise.resolve();
  const stored = previous.catch(() => undefined).then(() => store(dir, tar, failure));
  locks.set(dir, stored);
  try {
    return await stored;
  } finally {
    if (locks.get(dir) === stored) locks.delete(dir);
  }
}

async function store(dir: string, tar: Readable, failure: UploadFailure): Promise<StoredSource> {
  if (failure.error) throw failure.error;
  fs.mkdirSync(dir, { recursive: true });
  if (!fs.existsSync(path.join(dir, '.git'))) await git(dir, 'init', '-q', '-b', 'main');
  // The upload is the whole project: what the previous one had and this one lacks is gone.
  for (const entry of fs.readdirSync(dir)) if (entry !== '.git') fs.rmSync(path.join(dir, entry), { recursive: true, force: true });
  const extracted = await run('tar', ['-x', '-f', '-', '--no-same-owner', '--no-same-permissions', '--exclude=.git', '-C', dir], dir, tar, failure.broken);
  if (failure.error) throw failure.error;
  if (extracted.code !== 0) throw new InputError(`The upload is not a readable tar.gz archive: ${extracted.output.split('\n').slice(0, 3).join('; ')}`);
  await git(dir, 'add', '-A');
  await git(dir, 'commit', '-q', '--allow-empty', '-m', `Upload ${new Date().toISOString()}`);
  const commitSha = (await git(dir, 'rev-parse', 'HEAD')).trim();
  return { repoUrl: pathToFileURL(dir).href, commitSha };
}
