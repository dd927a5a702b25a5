import { NotFoundError, ValidationError } from '@platform/errors';
import { isUuid } from '@platform/ids';
import type { NewTracingProject, ProjectQuery, TracingProject, TracingProjectChanges, TracingProjectStore } from './tracing-project';

/** A project id from a path: 422 naming `path.session_id` when it is not a UUID. */
export function projectIdFromPath(id: string): string {
  if (!isUuid(id)) throw ValidationError.at(['path', 'session_id'], 'Input should be a valid UUID', 'uuid_parsing');
  return id.toLowerCase();
}

const notFound = (id: string) => new NotFoundError(`Tracing project ${id} not found`);

/**
 * Creates a project; a second project with the same name in the workspace is a ConflictError (409), unless
 * `upsert` asks to update that one instead (`POST /sessions?upsert=true`).
 */
export function createProject(store: TracingProjectStore, project: NewTracingProject, options: { upsert?: boolean } = {}): Promise<TracingProject> {
  return options.upsert ? store.upsert(project) : store.create(project);
}

export function listProjects(store: TracingProjectStore, query: ProjectQuery): Promise<TracingProject[]> {
  return store.list(query);
}

export async function getProject(store: TracingProjectStore, tenantId: string, id: string): Promise<TracingProject> {
  const project = await store.find(tenantId, projectIdFromPath(id));
  if (!project) throw notFound(id);
  return project;
}

/** `PATCH /sessions/{id}`: a rename to a name in use is a ConflictError (409). */
export async function updateProject(store: TracingProjectStore, tenantId: string, id: string, changes: TracingProjectChanges): Promise<TracingProject> {
  const project = await store.update(tenantId, projectIdFromPath(id), changes);
  if (!project) throw notFound(id);
  return project;
}

/** `DELETE /sessions/{id}`: the project goes with its runs and their feedback. */
export async function deleteProject(store: TracingProjectStore, tenantId: string, id: string): Promise<void> {
  if (!(await store.delete(tenantId, projectIdFromPath(id)))) throw notFound(id);
}
