import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { parseFlags } from '../parse-flags';
import { UsageError } from '../usage-error';

export interface DeployOptions {
  configPath: string;
  projectDir: string;
  name: string;
  gateway: string;
  apiKey: string;
  workspaceId?: string;
  /** Package the project's git HEAD rather than the folder as it is. */
  gitHead: boolean;
  /** List what would be uploaded, upload nothing. */
  dryRun: boolean;
  /** Pack secret-looking files (.env*, *.pem, *.key, id_rsa*, ...) too. */
  includeSecrets: boolean;
  help: boolean;
}

export const DEPLOY_HELP = `Usage: agent-platform deploy [options]

Packages the langgraph.json project in this folder, uploads it to the platform (through its gateway), creates the
deployment or makes a new revision of it, follows the build and start log until it is DEPLOYED, and prints its API
URL. Exits non-zero, printing the failure, when the revision fails. The variables of the project's env file become
the deployment's secrets (the file itself is not uploaded).

What is uploaded: the folder's files less those its .gitignore files and its .dockerignore leave out, never
node_modules/, .git/ or the platform's data folders (.agent-platform/, .langgraph_api/, .data/), and no
secret-looking file (.env*, *.pem, *.key, id_rsa*, ...; .env.example is packed) unless --include-secrets.

Options:
  -c, --config <file>     the project's langgraph.json (default: ./langgraph.json)
      --name <name>       the deployment's name (default: the project folder's name)
      --gateway <url>     the platform's gateway (default: $AGENT_PLATFORM_URL or http://127.0.0.1:8080)
      --api-key <key>     an API key of the platform (default: $AGENT_PLATFORM_API_KEY or $LANGSMITH_API_KEY)
      --workspace <id>    the workspace (X-Tenant-Id) for an organization-wide key (default: $AGENT_PLATFORM_WORKSPACE_ID)
      --git-head          upload the project's last commit (git HEAD) instead of its files as they are
      --dry-run           list the files that would be uploaded (and those left out), upload nothing
      --include-secrets   upload secret-looking files too
  -h, --help              show this help
`;

const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/;

export function parseDeployOptions(args: string[], env: Record<string, string | undefined>, cwd: string): DeployOptions {
  const flags = parseFlags('deploy', args, {
    config: { type: 'string', short: 'c', default: 'langgraph.json' },
    name: { type: 'string' },
    gateway: { type: 'string' },
    'api-key': { type: 'string' },
    workspace: { type: 'string' },
    'git-head': { type: 'boolean', default: false },
    'dry-run': { type: 'boolean', default: false },
    'include-secrets': { type: 'boolean', default: false },
    help: { type: 'boolean', short: 'h', default: false },
  });
  const configPath = path.resolve(cwd, flags.config as string);
  const projectDir = path.dirname(configPath);
  const name = (flags.name as string | undefined) ?? path.basename(projectDir).replace(/[^A-Za-z0-9._-]/g, '-').replace(/^[^A-Za-z0-9]+/, '');
  const gateway = ((flags.gateway as string | undefined) ?? env.AGENT_PLATFORM_URL ?? 'http://127.0.0.1:8080').replace(/\/+$/, '');
  const apiKey = (flags['api-key'] as string | undefined) ?? env.AGENT_PLATFORM_API_KEY ?? env.LANGSMITH_API_KEY ?? '';
  const options = { configPath, projectDir, name, gateway, apiKey, workspaceId: (flags.workspace as string | undefined) ?? env.AGENT_PLATFORM_WORKSPACE_ID, gitHead: flags['git-head'] as boolean, dryRun: flags['dry-run'] as boolean, includeSecrets: flags['include-secrets'] as boolean, help: flags.help as boolean };
  if (options.help) return options;
  if (!existsSync(configPath) || !statSync(configPath).isFile()) throw new UsageError(`deploy: --config: ${flags.config} not found (looked for ${configPath})`);
  if (!NAME.test(name)) throw new UsageError(`deploy: --name: '${name}' must be 1-100 letters, digits, '.', '_' or '-', starting with a letter or digit`);
  try {
    if (!['http:', 'https:'].includes(new URL(gateway).protocol)) throw new Error();
  } catch {
    throw new UsageError(`deploy: --gateway: '${gateway}' is not an http(s) URL`);
  }
  if (!apiKey && !options.dryRun) throw new UsageError('deploy: --api-key is required (or AGENT_PLATFORM_API_KEY): the key `npm start` printed, or one made with POST /api/v1/api-keys');
  return options;
}
