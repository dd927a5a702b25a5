import { AsyncLocalStorageProviderSingleton } from '@langchain/core/singletons';
import type { Logger } from '@platform/logging';
import { createLoopbackFetch, registerLoopbackFetch, type LoopbackFetch } from './loopback-fetch';
import { createSdkLogger, registerSdkLogger } from './sdk-logger';

// The graph node running now (a run's config carries it in its metadata), for the lines a node logs.
function currentNode(): string | undefined {
  const config = AsyncLocalStorageProviderSingleton.getRunnableConfig() as { metadata?: Record<string, unknown> } | undefined;
  const node = config?.metadata?.['langgraph_node'];
  return typeof node === 'string' ? node : undefined;
}

/**
 * What @langchain/langgraph-sdk finds in a LangGraph Platform process, set before the deployment's modules load:
 * `getLogger()`'s logger and the loopback fetch of a `Client` without `apiUrl` (bind it to the server's URL once
 * it listens).
 */
export function installSdkGlobals(logger: Logger, options: { secret: string; deploymentId?: string }): LoopbackFetch {
  registerSdkLogger(createSdkLogger(logger.child({ source: 'deployment' }), currentNode));
  const loopback = createLoopbackFetch(options);
  registerLoopbackFetch(loopback);
  return loopback;
}
