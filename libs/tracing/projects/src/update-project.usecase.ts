import type { TracingProject, TracingProjectChanges, TracingProjectsRepository } from '@platform/tracing-data-access';
import { notFound, projectIdFromPath } from './projects.deps';

/** `PATCH /sessions/{id}`: a rename to a name in use is a ConflictError (409). */
export async function updateProject(store: TracingProjectsRepository, tenantId: string, id: string, changes: TracingProjectChanges): Promise<TracingProject> {
  const project = await store.update(tenantId, projectIdFromPath(id), changes);
  if (!project) throw notFound(id);
  return project;
}
