import { spawn } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { PARENT_PID_VARIABLE } from '@platform/http-server';
import { superviseChild } from '../child-lifecycle';
import { parseFlags } from '../parse-flags';
import { PLATFORM_ROOT } from '../platform-root';
import { UsageError } from '../usage-error';

export const UP_HELP = `Usage: agent-platform up [options] [-- npm start options]

Runs the whole platform (what \`npm start\` runs: gateway, control plane, tracing, export, the web console) with
this folder's langgraph.json project served as a deployment of its workspace, traced to its tracing service. Its
data lives in <project>/.agent-platform/ (unless DATA_DIR is set); the admin API key is printed on the first start.
The platform's own variables (GATEWAY_PORT, DATABASE_URL, NATS_URL, ...) apply; \`-- --replicas agent-server=2\`
passes options on to it.

Options:
  -c, --config <file>   the project's langgraph.json (default: ./langgraph.json)
  -h, --help            show this help
`;

export function parseUpOptions(args: string[], cwd: string): { configPath: string; help: boolean; rest: string[] } {
  const split = args.indexOf('--');
  const own = split < 0 ? args : args.slice(0, split);
  const rest = split < 0 ? [] : args.slice(split + 1);
  const flags = parseFlags('up', own, { config: { type: 'string', short: 'c', default: 'langgraph.json' }, help: { type: 'boolean', short: 'h', default: false } });
  const configPath = path.resolve(cwd, flags.config as string);
  if (!flags.help && (!existsSync(configPath) || !statSync(configPath).isFile())) throw new UsageError(`up: --config: ${flags.config} not found (looked for ${configPath})`);
  return { configPath, help: flags.help as boolean, rest };
}

/**
 * Runs the launcher (tools/dev/launch.ts, in node with tsx's loader: no wrapper process between) serving the project
 * until it stops; resolves with its exit code once nothing it started runs any more. It holds the lock on the data
 * folder (one instance per .agent-platform/) and stops by itself if this process dies.
 */
export function runUp(options: { configPath: string; rest: string[] }): Promise<number> {
  const env = {
    ...process.env,
    PLATFORM_PROJECT: options.configPath,
    DATA_DIR: process.env.DATA_DIR ?? path.join(path.dirname(options.configPath), '.agent-platform'),
    [PARENT_PID_VARIABLE]: String(process.pid),
  };
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(PLATFORM_ROOT, 'tools/dev/launch.ts'), ...options.rest], { cwd: PLATFORM_ROOT, env, stdio: 'inherit', detached: true });
  return superviseChild(child);
}
