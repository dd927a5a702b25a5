import type { TracingProject, TracingProjectsRepository } from '@platform/tracing-data-access';
import { notFound, projectIdFromPath } from './projects.deps';

export async function getProject(store: TracingProjectsRepository, tenantId: string, id: string): Promise<TracingProject> {
  const project = await store.find(tenantId, projectIdFromPath(id));
  if (!project) throw notFound(id);
  return project;
}
