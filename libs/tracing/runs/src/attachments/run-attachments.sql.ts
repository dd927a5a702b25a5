// The `run_attachments` table's statements (`$1` is always the tenant).

export const UPSERT_ATTACHMENT_SQL = `INSERT INTO run_attachments (tenant_id, run_id, name, content_type, size, data)
VALUES ($1::uuid, $2::uuid, $3, $4, $5::int, $6::bytea)
ON CONFLICT (tenant_id, run_id, name) DO UPDATE
SET content_type = EXCLUDED.content_type, size = EXCLUDED.size, data = EXCLUDED.data, updated_at = now()`;

export const LIST_ATTACHMENTS_SQL = `SELECT a.run_id::text AS run_id, a.name, a.content_type, a.size
FROM run_attachments a
WHERE a.tenant_id = $1::uuid AND a.run_id IN (SELECT (jsonb_array_elements_text($2::jsonb))::uuid)
ORDER BY a.run_id, a.name`;

export const READ_ATTACHMENT_SQL = `SELECT a.content_type, a.size, a.data
FROM run_attachments a
WHERE a.tenant_id = $1::uuid AND a.run_id = $2::uuid AND a.name = $3`;
