import type { ProjectQuery, TracingProject, TracingProjectStore } from './tracing-project';

export function listProjects(store: TracingProjectStore, query: ProjectQuery): Promise<TracingProject[]> {
  return store.list(query);
}
