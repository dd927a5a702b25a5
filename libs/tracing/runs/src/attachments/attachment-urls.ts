import type { AttachmentLinks } from './attachment-links';
import type { RunAttachmentsRepository } from './run-attachments.repository';

export interface AttachmentUrlDeps {
  attachments: Pick<RunAttachmentsRepository, 'list'>;
  links: AttachmentLinks;
}

/** A run's attachments as links: name → `{url, contentType}`. */
export type RunAttachmentUrls = Map<string, { url: string; contentType: string }>;

/** Signed links to the attachments of these runs of a workspace, by run id (runs without any are absent). */
export async function attachmentUrls(deps: AttachmentUrlDeps, tenantId: string, runIds: string[], baseUrl: string): Promise<Map<string, RunAttachmentUrls>> {
  const byRun = new Map<string, RunAttachmentUrls>();
  for (const a of await deps.attachments.list(tenantId, runIds)) {
    let urls = byRun.get(a.runId);
    if (!urls) byRun.set(a.runId, (urls = new Map()));
    urls.set(a.name, { url: deps.links.url(baseUrl, { tenantId, runId: a.runId, name: a.name }), contentType: a.contentType });
  }
  return byRun;
}

/**
 * A run's attachments as the v1 API shows them (`s3_urls`, which the SDKs read): `attachment.<name>` →
 * `{presigned_url, mime_type}`; `{}` for a run without any.
 */
export function s3UrlsJson(urls: RunAttachmentUrls | undefined): Record<string, { presigned_url: string; mime_type: string }> {
  return Object.fromEntries([...(urls ?? [])].map(([name, link]) => [`attachment.${name}`, { presigned_url: link.url, mime_type: link.contentType }]));
}

/** v1 runs with their `s3_urls`, the attachment links of all of them read at once. */
export async function withS3Urls<R extends { id: string }>(deps: AttachmentUrlDeps, tenantId: string, runs: R[], baseUrl: string): Promise<(R & { s3_urls: ReturnType<typeof s3UrlsJson> })[]> {
  const links = await attachmentUrls(deps, tenantId, runs.map((r) => r.id), baseUrl);
  return runs.map((run) => ({ ...run, s3_urls: s3UrlsJson(links.get(run.id)) }));
}
