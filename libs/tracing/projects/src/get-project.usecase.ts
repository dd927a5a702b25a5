import type { TracingProject, TracingProjectStore } from './tracing-project';
import { notFound, projectIdFromPath } from './projects.deps';

export async function getProject(store: TracingProjectStore, tenantId: string, id: string): Promise<TracingProject> {
  const project = await store.find(tenantId, projectIdFromPath(id));
  if (!project) throw notFound(id);
  return project;
}
