import { syncSystemAssistants, type AssistantRepository } from '@platform/agent-server-assistants';
import type { GraphRegistry, LangGraphProject } from '@platform/agent-server-graphs';
import type { Logger } from '@platform/logging';
import { forgetProjectModules } from './project-modules';
import type { ReloadableRegistry } from './reloadable-registry';
import { watchProject, type ProjectWatcher } from './watch-project';

export interface DevReloadDeps {
  dir: string;
  /** Reads langgraph.json and imports the graphs again. */
  load: () => Promise<{ project: LangGraphProject; registry: GraphRegistry }>;
  registry: ReloadableRegistry;
  assistants: AssistantRepository;
  logger: Logger;
}

/**
 * The dev server's reload: when a project file changes, its modules are imported afresh and the new graphs
 * replace the old for the next run. A project that no longer loads leaves the previous graphs serving.
 */
export function startDevReload(deps: DevReloadDeps): ProjectWatcher {
  return watchProject(deps.dir, async (files) => {
    forgetProjectModules(deps.dir);
    try {
      const { project, registry } = await deps.load();
      for (const warning of project.warnings) deps.logger.warn({ config: project.configPath }, warning);
      await syncSystemAssistants(deps.assistants, registry, project.defaults);
      deps.registry.replace(registry);
      deps.logger.info({ files, graphs: registry.ids() }, 'graphs reloaded');
    } catch (err) {
      deps.logger.error({ err, files }, 'reload failed: the previous graphs keep serving');
    }
  });
}
