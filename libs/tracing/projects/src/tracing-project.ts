/** A tracing project ("session" on the LangSmith wire): the container runs are logged into. */
export interface TracingProject {
  id: string;
  tenantId: string;
  name: string;
  description: string | null;
  extra: Record<string, unknown> | null;
  startTime: Date;
  createdAt: Date;
  updatedAt: Date;
}

export interface NewTracingProject {
  tenantId: string;
  name: string;
  description?: string | null;
  extra?: Record<string, unknown> | null;
}

export interface ProjectQuery {
  tenantId: string;
  name?: string;
  nameContains?: string;
  ids?: string[];
  limit: number;
  offset: number;
}

/** Persistence of tracing projects; the Prisma repository implements it. */
export interface TracingProjectStore {
  create(project: NewTracingProject): Promise<TracingProject>;
  find(tenantId: string, id: string): Promise<TracingProject | null>;
  list(query: ProjectQuery): Promise<TracingProject[]>;
}

/** The JSON shape of a tracing project (`TracerSession` in the LangSmith API). */
export function tracingProjectJson(p: TracingProject) {
  return {
    id: p.id,
    tenant_id: p.tenantId,
    name: p.name,
    description: p.description,
    extra: p.extra,
    start_time: p.startTime.toISOString(),
    end_time: null,
    reference_dataset_id: null,
    trace_tier: null,
    created_at: p.createdAt.toISOString(),
    updated_at: p.updatedAt.toISOString(),
  };
}
