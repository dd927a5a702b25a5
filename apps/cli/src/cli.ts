import { DataDirLockedError } from '@platform/http-server';
import { DEPLOY_HELP, parseDeployOptions } from './deploy/deploy-options';
import { runDeploy } from './deploy/deploy.command';
import { parseDevOptions, DEV_HELP } from './dev/dev-options';
import { runDevServer } from './dev/dev-server';
import { parseUpOptions, runUp, UP_HELP } from './up/up.command';
import { UsageError } from './usage-error';

export const HELP = `Usage: agent-platform <command> [options]

Commands:
  dev      serve the langgraph.json project in this folder (one Agent Server, reload on change, no key)
  deploy   upload this folder's project to the platform (npm start) as a deployment, follow its build, print its URL
  up       run the whole platform (npm start) with this folder's project deployed
  help     show this help

Run \`agent-platform <command> --help\` for a command's options.
`;

/** Runs one command line; resolves with the process's exit code. */
export async function runCli(argv: string[], out: NodeJS.WritableStream = process.stdout, err: NodeJS.WritableStream = process.stderr): Promise<number> {
  const [command, ...args] = argv;
  try {
    switch (command) {
      case undefined:
      case 'help':
      case '--help':
      case '-h':
        out.write(HELP);
        return 0;
      case 'dev': {
        const options = parseDevOptions(args, process.env, process.cwd());
        if (options.help) {
          out.write(DEV_HELP);
          return 0;
        }
        return await runDevServer(options, out);
      }
      case 'deploy': {
        const options = parseDeployOptions(args, process.env, process.cwd());
        if (options.help) {
          out.write(DEPLOY_HELP);
          return 0;
        }
        return await runDeploy(options, out, err);
      }
      case 'up': {
        const options = parseUpOptions(args, process.cwd());
        if (options.help) {
          out.write(UP_HELP);
          return 0;
        }
        return await runUp(options);
      }
      default:
        throw new UsageError(`unknown command '${command}' (commands: dev, deploy, up; see --help)`);
    }
  } catch (error) {
    if (error instanceof DataDirLockedError) {
      err.write(`agent-platform ${command}: ${error.message}\n`);
      return 1;
    }
    if (!(error instanceof UsageError)) throw error;
    err.write(`agent-platform ${error.message}\n`);
    return 2;
  }
}
