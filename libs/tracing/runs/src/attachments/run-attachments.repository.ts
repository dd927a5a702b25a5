import type { SqlQuery } from '@platform/tracing-data-access';
import type { RunAttachment, StoredAttachmentInfo } from './run-attachment';
import { LIST_ATTACHMENTS_SQL, READ_ATTACHMENT_SQL, UPSERT_ATTACHMENT_SQL } from './run-attachments.sql';

/** Stores attachments on one connection or transaction (ingestion writes them with the batch's last chunk). */
export async function writeAttachments(tx: SqlQuery, tenantId: string, attachments: RunAttachment[]): Promise<void> {
  // One statement each: attachments are few and large, and a bytea array parameter binds differently per driver.
  for (const a of attachments) await tx.query(UPSERT_ATTACHMENT_SQL, [tenantId, a.runId, a.name, a.contentType, a.data.length, a.data]);
}

/** Reads of stored attachments: their list per run (no bytes), and one attachment whole. */
export class RunAttachmentsRepository {
  constructor(private readonly sql: SqlQuery) {}

  async list(tenantId: string, runIds: string[]): Promise<StoredAttachmentInfo[]> {
    if (runIds.length === 0) return [];
    const rows = await this.sql.query<{ run_id: string; name: string; content_type: string; size: number }>(LIST_ATTACHMENTS_SQL, [
      tenantId,
      JSON.stringify(runIds),
    ]);
    return rows.map((r) => ({ runId: r.run_id, name: r.name, contentType: r.content_type, size: Number(r.size) }));
  }

  async read(tenantId: string, runId: string, name: string): Promise<{ contentType: string; data: Buffer } | null> {
    const [row] = await this.sql.query<{ content_type: string; data: Uint8Array }>(READ_ATTACHMENT_SQL, [tenantId, runId, name]);
    return row ? { contentType: row.content_type, data: Buffer.from(row.data.buffer, row.data.byteOffset, row.data.byteLength) } : null;
  }
}
