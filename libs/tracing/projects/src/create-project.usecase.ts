import type { NewTracingProject, TracingProject, TracingProjectsRepository } from '@platform/tracing-data-access';

/**
 * Creates a project; a second project with the same name in the workspace is a ConflictError (409), unless
 * `upsert` asks to update that one instead (`POST /sessions?upsert=true`).
 */
export function createProject(store: TracingProjectsRepository, project: NewTracingProject, options: { upsert?: boolean } = {}): Promise<TracingProject> {
  return options.upsert ? store.upsert(project) : store.create(project);
}
