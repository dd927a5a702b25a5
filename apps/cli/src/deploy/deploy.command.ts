import { statSync } from 'node:fs';
import path from 'node:path';
import type { DeployOptions } from './deploy-options';
import { followRevision } from './follow-revision';
import { packFiles, packGitHead, planPack, PLATFORM_FOLDERS, projectSecrets, type PackPlan } from './pack-project';
import { PlatformError, platformApi, type Json } from './platform-api';

/** `agent-platform deploy`: upload → create or PATCH → follow the revision → print the API URL. Resolves with the exit code. */
export async function runDeploy(options: DeployOptions, out: NodeJS.WritableStream, err: NodeJS.WritableStream): Promise<number> {
  const api = platformApi(options);
  try {
    let archive: Buffer;
    if (options.gitHead) {
      if (options.dryRun) {
        out.write(`  --git-head: would upload the last commit of ${options.projectDir} (git archive HEAD)\n`);
        return 0;
      }
      archive = await packGitHead(options.projectDir);
    } else {
      const plan = await planPack(options.projectDir, { includeSecrets: options.includeSecrets });
      if (options.dryRun) {
        out.write(packListing(options.projectDir, plan));
        return 0;
      }
      if (plan.secrets.length) out.write(`  Left out (secret-looking; --include-secrets to upload them): ${plan.secrets.join(', ')}\n`);
      archive = await packFiles(options.projectDir, plan.files);
    }
    out.write(`  Uploading ${options.projectDir}${options.gitHead ? ' (git HEAD)' : ''} as '${options.name}' (${Math.ceil(archive.length / 1024)} KiB) to ${options.gateway}\n`);
    const source = await api('POST', `/v2/sources/${encodeURIComponent(options.name)}`, archive, 'application/gzip');
    const revisionConfig = { repo_ref: source.repo_ref, langgraph_config_path: path.basename(options.configPath) };
    const secrets = projectSecrets(options.configPath);
    const found = await api('GET', `/v2/deployments?name_contains=${encodeURIComponent(options.name)}&limit=100`);
    const existing = (found.resources as Json[]).find((d) => d.name === options.name);
    const deployment = existing
      ? await api('PATCH', `/v2/deployments/${existing.id}`, { source_revision_config: revisionConfig, secrets })
      : await api('POST', '/v2/deployments', {
          name: options.name,
          source: 'github',
          source_config: { repo_url: source.repo_url, deployment_type: 'dev' },
          source_revision_config: revisionConfig,
          secrets,
        });
    out.write(`  ${existing ? 'Updated' : 'Created'} deployment ${deployment.id}; following revision ${deployment.latest_revision_id}\n`);
    const { revision, logLines } = await followRevision(api, deployment.id, deployment.latest_revision_id, out);
    if (revision.status !== 'DEPLOYED') {
      // The log printed above holds the whole error already: its first line here, the whole of it only without a log.
      const message = String(revision.status_message ?? '');
      const summary = logLines > 0 && message.includes('\n') ? `${message.split('\n')[0].replace(/:$/, '')} (the log above has the error)` : message;
      err.write(`\n  Revision ${revision.id} ended ${revision.status}${summary ? `: ${summary}` : ''}\n`);
      return 1;
    }
    const served = await api('GET', `/v2/deployments/${deployment.id}`);
    out.write(`\n  Deployed '${options.name}'.\n  API URL: ${served.source_config.custom_url}\n  (send X-Api-Key with every request, as the SDK's apiKey)\n`);
    return 0;
  } catch (error) {
    if (!(error instanceof PlatformError)) throw error;
    err.write(`agent-platform deploy: ${error.message}\n`);
    return 1;
  }
}

/** `--dry-run`: every file that would be uploaded with its size, then what is left out and why. */
function packListing(projectDir: string, plan: PackPlan): string {
  const size = (f: string) => statSync(path.join(projectDir, f)).size;
  const total = plan.files.reduce((sum, f) => sum + size(f), 0);
  return [
    `  Would upload ${plan.files.length} files (${Math.ceil(total / 1024)} KiB before compression) from ${projectDir} (${plan.ignoreNote}):`,
    ...plan.files.map((f) => `    ${f}  (${size(f)} B)`),
    plan.secrets.length ? `  Left out (secret-looking; --include-secrets to upload them):\n${plan.secrets.map((f) => `    ${f}`).join('\n')}` : '',
    `  Never uploaded: ${PLATFORM_FOLDERS.map((f) => `${f}/`).join(', ')}`,
    '',
  ]
    .filter((line) => line !== '')
    .join('\n')
    .concat('\n');
}
