import type { TracingProject } from '@platform/tracing-data-access';

// The records live with their repository in the data-access lib.
export type { NewTracingProject, ProjectQuery, TracingProject, TracingProjectChanges } from '@platform/tracing-data-access';

/** The JSON shape of a tracing project (`TracerSession` in the LangSmith API). */
export function tracingProjectJson(p: TracingProject) {
  return {
    id: p.id,
    tenant_id: p.tenantId,
    name: p.name,
    description: p.description,
    extra: p.extra,
    start_time: p.startTime.toISOString(),
    end_time: p.endTime?.toISOString() ?? null,
    reference_dataset_id: null,
    default_dataset_id: null,
    trace_tier: null,
    created_at: p.createdAt.toISOString(),
    updated_at: p.updatedAt.toISOString(),
  };
}
