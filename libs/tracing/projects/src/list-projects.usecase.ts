import type { ProjectQuery, TracingProject, TracingProjectsRepository } from '@platform/tracing-data-access';

export function listProjects(store: TracingProjectsRepository, query: ProjectQuery): Promise<TracingProject[]> {
  return store.list(query);
}
