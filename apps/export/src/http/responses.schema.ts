import { z } from 'zod';
import { EXPORT_STATUSES } from '@platform/export-data-access';
import type { destinationJson } from '@platform/export-destinations';
import type { ExportRunJson, bulkExportJson } from '@platform/export-exports';
import type { SameShape } from '@platform/openapi';

// The response shapes of `/api/v1/bulk-exports`, for the OpenAPI document: what bulkExportJson & co. send (checked
// below at compile time).

const timestamp = z.string().describe('ISO 8601');
const status = z.enum(EXPORT_STATUSES);

export const bulkExportResponse = z.object({
  id: z.string(),
  tenant_id: z.string(),
  bulk_export_destination_id: z.string(),
  session_id: z.string(),
  start_time: timestamp,
  end_time: timestamp.nullable(),
  status,
  format: z.string(),
  format_version: z.string(),
  compression: z.string().nullable(),
  filter: z.string().nullable(),
  export_fields: z.array(z.string()).nullable(),
  interval_hours: z.number().nullable(),
  source_bulk_export_id: z.string().nullable(),
  error: z.string().nullable(),
  created_at: timestamp,
  updated_at: timestamp,
  finished_at: timestamp.nullable(),
});

export const exportRunResponse = z.object({
  id: z.string(),
  bulk_export_id: z.string(),
  status,
  retry_number: z.number().int(),
  errors: z.record(z.string(), z.string()),
  created_at: timestamp,
  updated_at: timestamp,
  finished_at: timestamp.nullable(),
  start_time: timestamp,
  end_time: timestamp,
  metadata: z.object({
    prefix: z.string(),
    start_time: timestamp,
    end_time: timestamp,
    result: z.object({
      rows_written: z.number(),
      bytes_written: z.number(),
      exported_files: z.array(z.string()),
      export_path: z.string(),
      latest_cursor: z.object({ start_time: timestamp, id: z.string() }).nullable(),
    }),
  }),
});

export const destinationResponse = z.object({
  id: z.string(),
  tenant_id: z.string(),
  destination_type: z.string(),
  display_name: z.string(),
  config: z.object({
    bucket_name: z.string(),
    prefix: z.string(),
    region: z.string().nullable(),
    endpoint_url: z.string().nullable(),
    include_bucket_in_prefix: z.boolean(),
    config_kwargs_s3: z.object({ addressing_style: z.enum(['auto', 'virtual', 'path']) }).nullable(),
  }),
  credentials_keys: z.array(z.string()).describe('The names of the credential keys held (never their values)'),
  created_at: timestamp,
  updated_at: timestamp,
});

const _export: SameShape<z.output<typeof bulkExportResponse>, ReturnType<typeof bulkExportJson>> = true;
const _run: SameShape<z.output<typeof exportRunResponse>, ExportRunJson> = true;
const _destination: SameShape<z.output<typeof destinationResponse>, ReturnType<typeof destinationJson>> = true;
