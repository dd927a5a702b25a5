/** A tracing project ("session" on the LangSmith wire): the container runs are logged into. */
export interface TracingProject {
  id: string;
  tenantId: string;
  name: string;
  description: string | null;
  extra: Record<string, unknown> | null;
  startTime: Date;
  endTime: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

export interface NewTracingProject {
  tenantId: string;
  name: string;
  description?: string | null;
  extra?: Record<string, unknown> | null;
}

/** Changes to a project; an absent field is left as it is. */
export interface TracingProjectChanges {
  name?: string;
  description?: string;
  extra?: Record<string, unknown>;
  endTime?: Date;
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
  /** Creates the project, or updates the description and extra given of the one with its name. */
  upsert(project: NewTracingProject): Promise<TracingProject>;
  find(tenantId: string, id: string): Promise<TracingProject | null>;
  list(query: ProjectQuery): Promise<TracingProject[]>;
  /** Null when the project does not exist in the workspace. */
  update(tenantId: string, id: string, changes: TracingProjectChanges): Promise<TracingProject | null>;
  /** Deletes a project with its runs and their feedback; false when it does not exist in the workspace. */
  delete(tenantId: string, id: string): Promise<boolean>;
  /** Ids of the projects with these names, creating the missing ones (safe against concurrent creators). */
  ensureNamed(tenantId: string, names: string[]): Promise<Map<string, string>>;
  /** Those of `ids` that are projects of the workspace. */
  existingIds(tenantId: string, ids: string[]): Promise<Set<string>>;
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
    end_time: p.endTime?.toISOString() ?? null,
    reference_dataset_id: null,
    default_dataset_id: null,
    trace_tier: null,
    created_at: p.createdAt.toISOString(),
    updated_at: p.updatedAt.toISOString(),
  };
}
