import { route, type DeclaredRoute } from '@platform/openapi';
import { infoResponse } from './responses.schema';

export interface InfoOptions {
  version: string;
  /** Largest batch the SDK should send in one request, in bytes. */
  batchSizeLimitBytes: number;
  /** Most run operations the SDK should send in one request. */
  batchSizeLimit: number;
}

/**
 * `GET /info`, read by the `langsmith` SDK to pick its ingestion path: multipart ingestion, with gzip or zstd bodies
 * (`POST /runs/multipart` decodes both).
 */
export function infoRoutes(options: InfoOptions): DeclaredRoute[] {
  const spec = { method: 'get', path: '/api/v1/info', summary: 'Server information and batch ingestion settings', tags: ['Info'] } as const;
  const info = route({ ...spec, responses: { 200: { description: 'What the SDK reads to pick its ingestion path', schema: infoResponse } } }, (_input, _req, res) => {
    res.json({
      version: options.version,
      license_expiration_time: null,
      tenant_handle: null,
      batch_ingest_config: {
        use_multipart_endpoint: true,
        size_limit: options.batchSizeLimit,
        size_limit_bytes: options.batchSizeLimitBytes,
        scale_up_qsize_trigger: 1000,
        scale_up_nthreads_limit: 16,
        scale_down_nempty_trigger: 4,
      },
      instance_flags: {
        gzip_body_enabled: true,
        zstd_compression_enabled: true,
        dataset_examples_multipart_enabled: false,
        experimental_search_enabled: false,
        generate_ai_query_enabled: false,
        org_creation_disabled: true,
        playground_auth_bypass_enabled: false,
        search_enabled: false,
        show_ttl_ui: false,
        trace_tier_duration_days: { longlived: 400, shortlived: 14 },
        workspace_scope_org_invites: false,
      },
    });
  });
  return [info];
}
