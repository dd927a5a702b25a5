import { NotFoundError } from '@platform/errors';
import type { AttachmentLinks } from './attachment-links';
import type { RunAttachmentsRepository } from './run-attachments.repository';

export interface DownloadDeps {
  attachments: Pick<RunAttachmentsRepository, 'read'>;
  links: AttachmentLinks;
}

/** The attachment a signed link names: 403 for a bad or expired link, 404 once the attachment is gone. */
export async function downloadAttachment(deps: DownloadDeps, token: string): Promise<{ name: string; contentType: string; data: Buffer }> {
  const claims = deps.links.verify(token);
  const found = await deps.attachments.read(claims.tenantId, claims.runId, claims.name);
  if (!found) throw new NotFoundError('Attachment not found');
  return { name: claims.name, ...found };
}
