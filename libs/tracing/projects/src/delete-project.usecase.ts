import type { TracingProjectsRepository } from '@platform/tracing-data-access';
import { notFound, projectIdFromPath } from './projects.deps';

/** `DELETE /sessions/{id}`: the project goes with its runs and their feedback. */
export async function deleteProject(store: TracingProjectsRepository, tenantId: string, id: string): Promise<void> {
  if (!(await store.delete(tenantId, projectIdFromPath(id)))) throw notFound(id);
}
