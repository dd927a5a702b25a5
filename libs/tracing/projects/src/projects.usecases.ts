import { NotFoundError } from '@platform/errors';
import type { NewTracingProject, ProjectQuery, TracingProject, TracingProjectStore } from './tracing-project';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Creates a project; a second project with the same name in the workspace is a ConflictError (409). */
export function createProject(store: TracingProjectStore, project: NewTracingProject): Promise<TracingProject> {
  return store.create(project);
}

export function listProjects(store: TracingProjectStore, query: ProjectQuery): Promise<TracingProject[]> {
  return store.list(query);
}

export async function getProject(store: TracingProjectStore, tenantId: string, id: string): Promise<TracingProject> {
  const project = UUID.test(id) ? await store.find(tenantId, id.toLowerCase()) : null;
  if (!project) throw new NotFoundError(`Tracing project ${id} not found`);
  return project;
}
