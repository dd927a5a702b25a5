import type { PlatformApi } from './platform-api';

const FINAL = (status: string) => status === 'DEPLOYED' || status.includes('FAILED') || status === 'SKIPPED' || status === 'INTERRUPTED' || status === 'REPLACED';
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export interface FollowOptions {
  intervalMs?: number;
  /** Print a "still <status>" line this often while nothing else is printed. */
  progressMs?: number;
}

/**
 * Prints a revision's status changes and its build and start log as they come (GET …/revisions/{id} and
 * …/revisions/{id}/logs, paged by the last line seen) until it ends; resolves with the revision as it ended and the
 * number of log lines printed.
 */
export async function followRevision(api: PlatformApi, deploymentId: string, revisionId: string, out: NodeJS.WritableStream, options: FollowOptions = {}) {
  const base = `/v2/deployments/${deploymentId}/revisions/${revisionId}`;
  const started = Date.now();
  let after: string | undefined;
  let logLines = 0;
  let status = '';
  let lastPrinted = Date.now();
  const elapsed = () => `${Math.round((Date.now() - started) / 1000)}s`;
  const drainLogs = async () => {
    for (;;) {
      const page = await api('GET', `${base}/logs?limit=500${after ? `&offset=${after}` : ''}`);
      for (const line of page.logs as { id: string; type: string; level: string; message: string }[]) {
        out.write(`  ${line.type === 'build' ? 'build ' : 'deploy'} | ${line.level === 'ERROR' ? 'ERROR ' : ''}${line.message.replace(/\n$/, '')}\n`);
        after = line.id;
        logLines++;
        lastPrinted = Date.now();
      }
      if (page.logs.length < 500) return;
    }
  };
  for (;;) {
    const revision = await api('GET', base);
    await drainLogs();
    if (revision.status !== status) {
      status = revision.status;
      out.write(`  [${elapsed()}] revision ${revisionId}: ${status}\n`);
      lastPrinted = Date.now();
    } else if (Date.now() - lastPrinted >= (options.progressMs ?? 10_000)) {
      out.write(`  [${elapsed()}] still ${status}…\n`);
      lastPrinted = Date.now();
    }
    if (FINAL(status)) {
      await drainLogs();
      return { revision, logLines };
    }
    await sleep(options.intervalMs ?? 1_000);
  }
}
