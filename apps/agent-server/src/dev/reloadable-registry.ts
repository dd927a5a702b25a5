import type { GraphRegistry } from '@platform/agent-server-graphs';

/** A registry whose graphs can be replaced while the server runs (the dev server's reload). */
export interface ReloadableRegistry extends GraphRegistry {
  replace(next: GraphRegistry): void;
}

/**
 * Delegates every call to the current registry. A run resolves its graph once, when it starts: runs in flight
 * finish on the graph they started with, the next run gets the replacement.
 */
export function reloadableRegistry(initial: GraphRegistry): ReloadableRegistry {
  let current = initial;
  return {
    ids: () => current.ids(),
    has: (graphId) => current.has(graphId),
    description: (graphId) => current.description(graphId),
    get: (graphId, config, use) => current.get(graphId, config, use),
    typeSchemas: (graphId) => current.typeSchemas(graphId),
    replace(next) {
      current = next;
    },
  };
}
