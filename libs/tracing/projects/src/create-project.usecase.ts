import type { NewTracingProject, TracingProject, TracingProjectStore } from './tracing-project';

/**
 * Creates a project; a second project with the same name in the workspace is a ConflictError (409), unless
 * `upsert` asks to update that one instead (`POST /sessions?upsert=true`).
 */
export function createProject(store: TracingProjectStore, project: NewTracingProject, options: { upsert?: boolean } = {}): Promise<TracingProject> {
  return options.upsert ? store.upsert(project) : store.create(project);
}
