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
