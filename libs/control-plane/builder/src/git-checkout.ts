import fs from 'node:fs/promises';
import { EgressRefusedError, type EgressPolicy } from '@platform/egress';
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
  /**
   * For http(s) URLs: the host is resolved and checked with this policy, git connects to the checked address only
   * (`http.curloptResolve`, redirects not followed), and a failure to connect reads "could not be reached".
   */
  egress?: EgressPolicy;
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

/** Git's words for a remote it could not connect to (DNS, TCP, TLS): reported without its details. */
const UNREACHABLE = /unable to access|could not resolve|failed to connect|connection (refused|timed out|reset)|couldn't connect|ssl|tls|timed out|no route to host|network is unreachable/i;

/**
 * The `-c` options that pin an http(s) URL's host to the address `egress` checked (a later DNS answer cannot move
 * the clone elsewhere) and keep git from following redirects to another host. BuildError when the host is refused.
 */
export async function pinnedRemote(repoUrl: string, egress: EgressPolicy): Promise<string[]> {
  let url: URL;
  try {
    url = new URL(repoUrl);
  } catch {
    return [];
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return [];
  const port = url.port || (url.protocol === 'https:' ? '443' : '80');
  let addresses;
  try {
    addresses = await egress.resolve(url.hostname);
  } catch (err) {
    if (err instanceof EgressRefusedError) throw new BuildError(`Fetching from ${url.origin} refused: ${err.message}`);
    throw new BuildError(`Fetching from ${url.origin} failed: the repository could not be reached`);
  }
  const options = ['-c', 'http.followRedirects=false'];
  // An IP literal needs no pin: no name is resolved.
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (addresses[0].address !== host) {
    const address = addresses[0].family === 6 ? `[${addresses[0].address}]` : addresses[0].address;
    options.push('-c', `http.curloptResolve=${url.hostname}:${port}:${address}`);
  }
  return options;
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
  const pinned = request.egress ? await pinnedRemote(request.repoUrl, request.egress) : [];
  if (pinned.length) {
    // A remote's errors are reported in a few words: a connection's details would map the network behind it.
    const what = `Fetching ${target} from ${new URL(request.repoUrl).origin}`;
    const result = await runCommand('git', [...pinned, 'fetch', '--quiet', '--depth', '1', '--', request.repoUrl, target], {
      cwd: request.dir,
      env,
      signal: request.signal,
      timeoutMs: request.timeoutMs,
    });
    if (result.aborted) throw new BuildError('Build aborted');
    if (result.timedOut || (result.code !== 0 && UNREACHABLE.test(result.output))) throw new BuildError(`${what} failed: the repository could not be reached`);
    if (result.code !== 0) throw new BuildError(`${what} failed: ${tail(result.output, 4)}`);
  } else await git(['fetch', '--quiet', '--depth', '1', '--', request.repoUrl, target], `Fetching ${target} from ${request.repoUrl}`);
  await git(['-c', 'advice.detachedHead=false', 'checkout', '--quiet', 'FETCH_HEAD'], 'git checkout');
  return git(['rev-parse', 'HEAD'], 'git rev-parse');
}
