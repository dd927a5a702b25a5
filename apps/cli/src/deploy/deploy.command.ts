import path from 'node:path';
import type { DeployOptions } from './deploy-options';
import { followRevision } from './follow-revision';
import { packProject, projectSecrets } from './pack-project';
import { PlatformError, platformApi, type Json } from './platform-api';

/** `agent-platform deploy`: upload → create or PATCH → follow the revision → print the API URL. Resolves with the exit code. */
export async function runDeploy(options: DeployOptions, out: NodeJS.WritableStream, err: NodeJS.WritableStream): Promise<number> {
  const api = platformApi(options);
  try {
    const archive = await packProject(options.projectDir, options.gitHead);
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
    const revision = await followRevision(api, deployment.id, deployment.latest_revision_id, out);
    if (revision.status !== 'DEPLOYED') {
      err.write(`\n  Revision ${revision.id} ended ${revision.status}${revision.status_message ? `:\n${revision.status_message}` : ''}\n`);
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
