import { existsSync, statSync } from 'node:fs';
import { isIP } from 'node:net';
import path from 'node:path';
import { parseFlags } from '../parse-flags';
import { UsageError } from '../usage-error';

export interface DevOptions {
  /** Absolute path of the project's langgraph.json. */
  configPath: string;
  projectDir: string;
  host: string;
  port: number;
  reload: boolean;
  /** Required of every request when the server listens beyond loopback. */
  apiKey?: string;
  help: boolean;
}

export const DEV_HELP = `Usage: agent-platform dev [options]

Serves the langgraph.json project in this folder with one Agent Server (the code deployments run), on an
embedded database under <project>/.langgraph_api/ (or DATABASE_URL), reloading the graphs when a file changes.

Options:
  -c, --config <file>   the project's langgraph.json (default: ./langgraph.json)
      --port <port>     port to listen on (default: 2024)
      --host <host>     interface to listen on (default: 127.0.0.1; others need --allow-remote)
      --no-reload       do not reload the graphs when the project's files change
      --allow-remote    allow a non-loopback --host; requests must then send --api-key as X-Api-Key
      --api-key <key>   the key remote callers send (16+ characters; default: $AGENT_PLATFORM_API_KEY)
  -h, --help            show this help
`;

const isLoopback = (host: string) => host === 'localhost' || host === '::1' || (isIP(host) === 4 && host.startsWith('127.'));

export function parseDevOptions(args: string[], env: Record<string, string | undefined>, cwd: string): DevOptions {
  const flags = parseFlags('dev', args, {
    config: { type: 'string', short: 'c', default: 'langgraph.json' },
    port: { type: 'string', default: '2024' },
    host: { type: 'string', default: '127.0.0.1' },
    'no-reload': { type: 'boolean', default: false },
    'allow-remote': { type: 'boolean', default: false },
    'api-key': { type: 'string' },
    help: { type: 'boolean', short: 'h', default: false },
  });
  const configPath = path.resolve(cwd, flags.config as string);
  const help = flags.help as boolean;
  const port = Number(flags.port);
  const host = flags.host as string;
  const base = { configPath, projectDir: path.dirname(configPath), host, port, reload: !flags['no-reload'], help };
  if (help) return base;
  if (!existsSync(configPath) || !statSync(configPath).isFile()) {
    throw new UsageError(`dev: --config: ${flags.config} not found (looked for ${configPath})`);
  }
  if (!Number.isInteger(port) || port < 1 || port > 65535) throw new UsageError(`dev: --port: '${flags.port}' is not a port (1-65535)`);
  if (isLoopback(host)) return base;
  if (!flags['allow-remote']) {
    throw new UsageError(`dev: --host ${host} is reachable from other machines; add --allow-remote (and an API key) to serve there`);
  }
  const apiKey = (flags['api-key'] as string | undefined) ?? env.AGENT_PLATFORM_API_KEY;
  if (!apiKey) throw new UsageError('dev: --allow-remote needs --api-key <key> (or AGENT_PLATFORM_API_KEY): remote callers must send it');
  if (apiKey.length < 16) throw new UsageError('dev: --api-key must be at least 16 characters');
  return { ...base, apiKey };
}
