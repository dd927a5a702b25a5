import fs from 'node:fs/promises';
import { BuildError } from './build-error';
import { runCommand, tail } from './run-command';

export interface CheckoutRequest {
  repoUrl: string;
  /** Branch, `refs/tags/...`, or a commit SHA. */
  ref: string;
  /** A commit to check out instead of the ref's tip (a redeploy of a built revision). */
  commitSha?: string;
  /** OAuth token for private repositories, sent as HTTP basic auth (`x-access-token:<token>`, as GitHub expects). */
  token?: string;
  dir: string;
  signal: AbortSignal;
  timeoutMs: number;
  log?: (text: string) => void;
}

// Refs are passed as arguments, never through a shell; this keeps them from reading as options or ranges.
const SAFE_REF = /^(?!-)(?!.*\.\.)[A-Za-z0-9._/@+-]+$/;

function gitEnv(token?: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    GIT_TERMINAL_PROMPT: '0',
    GIT_ASKPASS: 'true',
    LC_ALL: 'C',
  };
  if (token) {
    // Through the environment, so the token is neither on a command line nor written to .git/config.
    const basic = Buffer.from(`x-access-token:${token}`).toString('base64');
    Object.assign(env, { GIT_CONFIG_COUNT: '1', GIT_CONFIG_KEY_0: 'http.extraHeader', GIT_CONFIG_VALUE_0: `Authorization: Basic ${basic}` });
  }
  return env;
}

/** Fetches one commit of a repository into `dir` (shallow) and returns its SHA. */
export async function gitCheckout(request: CheckoutRequest): Promise<string> {
  const target = request.commitSha ?? request.ref;
  if (!SAFE_REF.test(target)) throw new BuildError(`repo_ref "${target}" is not a valid git reference`);
  await fs.rm(request.dir, { recursive: true, force: true });
  await fs.mkdir(request.dir, { recursive: true });
  const env = gitEnv(request.token);
  const git = async (args: string[], what: string) => {
    const result = await runCommand('git', args, {
      cwd: request.dir,
      env,
      signal: request.signal,
      timeoutMs: request.timeoutMs,
      onOutput: request.log,
    });
    if (result.aborted) throw new BuildError('Build aborted');
    if (result.timedOut) throw new BuildError(`${what} timed out`);
    if (result.code !== 0) throw new BuildError(`${what} failed: ${tail(result.output, 4)}`);
    return result.output.trim();
  };
  await git(['init', '--quiet'], 'git init');
  await git(['fetch', '--quiet', '--depth', '1', '--', request.repoUrl, target], `Fetching ${target} from ${request.repoUrl}`);
  await git(['-c', 'advice.detachedHead=false', 'checkout', '--quiet', 'FETCH_HEAD'], 'git checkout');
  return git(['rev-parse', 'HEAD'], 'git rev-parse');
}
