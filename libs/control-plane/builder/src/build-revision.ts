import fs from 'node:fs/promises';
import path from 'node:path';
import { resolveSharedPackages, unsupportedMessage, unsupportedPackages } from '@platform/langgraph-packages';
import { BuildError } from './build-error';
import { planDependencies } from './dependencies';
import { failureExcerpt } from './failure-excerpt';
import { gitCheckout } from './git-checkout';
import { readLanggraphConfig } from './langgraph-config';
import { lockfileInstall } from './lockfile-install';
import { runCommand } from './run-command';
import { resolveRepoLocation, type SourceRules } from './source-location';

export interface BuildRequest {
  repoUrl: string;
  /** The deployment's workspace: its own uploads are allowed to it, no one else's. */
  tenantId?: string;
  ref: string;
  commitSha?: string;
  token?: string;
  /** `langgraph_config_path`, relative to the repository root. */
  configPath: string;
  /**
   * Always run when set; otherwise the project's lockfile picks the install (yarn, pnpm, `npm ci`), and without one
   * `npm install` runs only when the platform lacks a dependency.
   */
  installCommand?: string;
  buildCommand?: string;
  /** Where to check out (emptied first). */
  dir: string;
  signal: AbortSignal;
  /** Build output as it comes (the revision's build log). */
  log?: (text: string) => void;
}

export interface BuildResult {
  checkoutDir: string;
  configPath: string;
  commitSha: string;
  graphs: string[];
  /** Whether dependencies were installed (`install_command`, the lockfile's package manager, or `npm install`). */
  installed: boolean;
  /** The install command that ran (a driver that installs again elsewhere runs the same). */
  installCommand?: string;
  /** Why they were (or were not) installed. */
  installReason: string;
  /** Version of each LangGraph.js package the deployment runs with, and whether the project or the platform provides it. */
  packages: Record<string, string>;
}

export interface BuilderOptions {
  /** Where the platform's node_modules are (the Agent Server falls back to them). */
  platformRoot: string;
  timeoutMs: number;
  defaultInstallCommand: string;
  /** Where sources may come from: checked again here, at fetch time, and the canonical location is what is fetched. */
  sources?: SourceRules;
}

/** Build environment: no control-plane secrets, only what the tools need. */
function buildEnv(): NodeJS.ProcessEnv {
  const keep = ['PATH', 'HOME', 'LANG', 'TMPDIR', 'npm_config_cache', 'npm_config_registry', 'NPM_CONFIG_REGISTRY', 'HTTP_PROXY', 'HTTPS_PROXY', 'NO_PROXY'];
  return { ...Object.fromEntries(keep.filter((k) => process.env[k] !== undefined).map((k) => [k, process.env[k]])), CI: 'true' };
}

/**
 * A github-source build: check out the commit, validate langgraph.json, install dependencies when needed, run the
 * build command. BuildError carries the reason for BUILD_FAILED.
 */
export class Builder {
  constructor(private readonly options: BuilderOptions) {}

  async build(request: BuildRequest): Promise<BuildResult> {
    const started = Date.now();
    const remaining = () => Math.max(1_000, this.options.timeoutMs - (Date.now() - started));
    const commitSha = await gitCheckout({
      repoUrl: this.fetchFrom(request),
      ref: request.ref,
      commitSha: request.commitSha,
      token: request.token,
      dir: request.dir,
      signal: request.signal,
      timeoutMs: remaining(),
      log: request.log,
    });
    const config = await readLanggraphConfig(request.dir, request.configPath);

    const { command: installCommand, reason: installReason } = await this.planInstall(config.projectDir, request.installCommand);
    request.log?.(`Install: ${installReason}\n`);
    if (installCommand) await this.shell(installCommand, config.projectDir, request.installCommand ? 'install_command' : 'Install', request, remaining());
    if (request.buildCommand) await this.shell(request.buildCommand, config.projectDir, 'build_command', request, remaining());
    // Re-check after the commands: a build step may generate graph files, and must not break the config.
    const final = await readLanggraphConfig(request.dir, request.configPath);
    await fs.access(final.path);
    return {
      checkoutDir: request.dir,
      configPath: final.path,
      commitSha,
      graphs: Object.keys(final.graphs),
      installed: Boolean(installCommand),
      installCommand,
      installReason,
      packages: this.checkPackages(config.projectDir, request),
    };
  }

  /** The canonical location of the source (a real path or a normalised URL), when the rules allow it. */
  private fetchFrom(request: BuildRequest): string {
    if (!this.options.sources) return request.repoUrl;
    const location = resolveRepoLocation(request.repoUrl, this.options.sources, request.tenantId);
    if (!location) throw new BuildError('repo_url is not a repository location this control plane allows');
    return location.kind === 'local' ? location.path : location.url;
  }

  private async planInstall(projectDir: string, given?: string): Promise<{ command?: string; reason: string }> {
    if (given) return { command: given, reason: 'install_command given' };
    const locked = await lockfileInstall(projectDir);
    if (locked) return { command: locked.command, reason: `${locked.lockfile} found` };
    const plan = await planDependencies(projectDir, this.options.platformRoot);
    if (!plan.missing.length) return { reason: 'every dependency is provided by the platform' };
    return { command: this.options.defaultInstallCommand, reason: `platform lacks ${plan.missing.join(', ')}` };
  }

  /** The LangGraph.js packages the Agent Server will share with the deployment must lie in the supported ranges. */
  private checkPackages(projectDir: string, request: BuildRequest): Record<string, string> {
    const packages = resolveSharedPackages(projectDir, this.options.platformRoot);
    const listed = Object.fromEntries(packages.map((p) => [p.name, `${p.version} (${p.origin})`]));
    request.log?.(`LangGraph.js packages: ${Object.entries(listed).map(([name, v]) => `${name} ${v}`).join(', ')}\n`);
    const unsupported = unsupportedPackages(packages);
    if (unsupported.length) throw new BuildError(unsupportedMessage(unsupported));
    return listed;
  }

  private async shell(command: string, cwd: string, what: string, request: BuildRequest, timeoutMs: number): Promise<void> {
    request.log?.(`$ ${command}\n`);
    const result = await runCommand(command, [], { cwd, env: buildEnv(), signal: request.signal, timeoutMs, shell: true, onOutput: request.log });
    if (result.aborted) throw new BuildError('Build aborted');
    if (result.timedOut) throw new BuildError(`${what} timed out`);
    const where = path.relative(request.dir, cwd);
    if (result.code !== 0) throw new BuildError(`${what} "${command}" failed (exit ${result.code})${where ? ` in ${where}` : ''}:\n${failureExcerpt(result.output)}`);
  }
}
