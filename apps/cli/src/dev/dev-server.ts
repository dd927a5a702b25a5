import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { lockDataDir, PARENT_PID_VARIABLE } from '@platform/http-server';
import { superviseChild } from '../child-lifecycle';
import { AGENT_SERVER_COMMAND, PLATFORM_ROOT } from '../platform-root';
import { waitOk } from '../wait-ok';
import { devBanner } from './dev-banner';
import type { DevOptions } from './dev-options';

/** The Agent Server's variables for the dev server: the deployment's server, in dev mode, on the project's data. */
export function devServerEnv(options: DevOptions, env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const apiUrl = `http://${options.host.includes(':') ? `[${options.host}]` : options.host}:${options.port}`;
  return {
    ...env,
    HOST: options.host,
    PORT: String(options.port),
    LANGGRAPH_CONFIG_PATH: options.configPath,
    LANGGRAPH_API_URL: apiUrl,
    LANGGRAPH_DEV: 'true',
    LANGGRAPH_DEV_RELOAD: String(options.reload),
    LANGGRAPH_DEV_API_KEY: options.apiKey,
    DATA_DIR: path.join(options.projectDir, '.langgraph_api'),
    DATABASE_URL: env.DATABASE_URL || undefined,
    MIGRATE_ON_START: 'true',
    // No gateway signs requests to a dev server: a throwaway key signs the in-process SDK's calls. A platform
    // secret in the shell never reaches the project's code (the server would refuse to start with it).
    DEPLOYMENT_KEY: randomBytes(32).toString('base64url'),
    INTERNAL_SECRET: undefined,
    LOG_LEVEL: env.LOG_LEVEL ?? 'info',
  };
}

/**
 * Runs the Agent Server for the project until it exits or this process is told to stop (then it stops the server
 * the way a deployment is stopped: SIGTERM, runs handed back). Resolves with the exit code.
 */
export async function runDevServer(options: DevOptions, out: NodeJS.WritableStream = process.stdout): Promise<number> {
  const env: NodeJS.ProcessEnv = { ...devServerEnv(options, process.env), [PARENT_PID_VARIABLE]: String(process.pid) };
  // One dev server per project folder: a second would open the same embedded database.
  const lock = lockDataDir(env.DATA_DIR as string, { url: env.LANGGRAPH_API_URL, command: 'agent-platform dev' });
  const [command, ...args] = AGENT_SERVER_COMMAND;
  // Its own process group: the terminal's Ctrl-C reaches this process only, which stops the server once (SIGTERM).
  const child = spawn(command, args, { cwd: PLATFORM_ROOT, env, stdio: ['ignore', 'inherit', 'inherit'], detached: true });
  let exited: number | undefined;
  child.on('error', (err) => out.write(`dev: could not start the Agent Server (${command}): ${err.message}\n`));
  const done = superviseChild(child, 'SIGTERM').then((code) => (exited = code));
  if (await waitOk(env.LANGGRAPH_API_URL as string, () => exited !== undefined)) {
    out.write(devBanner(options, env.LANGGRAPH_API_URL as string, env.DATABASE_URL));
  }
  const code = await done;
  lock.release();
  return code;
}
