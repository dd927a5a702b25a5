import type { RunnableConfig } from '@langchain/core/runnables';
import { MemorySaver, MessagesAnnotation, START, StateGraph } from '@langchain/langgraph';
import { NotFoundError } from '@platform/errors';
import { createGraphRegistry, type GraphFactoryRuntime } from './graph-registry';

const builder = () => new StateGraph(MessagesAnnotation).addNode('respond', () => ({ messages: [] })).addEdge(START, 'respond');

describe('createGraphRegistry', () => {
  it('calls a factory on every use with that use’s config and runtime, as the reference does', async () => {
    const calls: [RunnableConfig, GraphFactoryRuntime][] = [];
    const saver = new MemorySaver();
    const registry = createGraphRegistry({
      checkpointer: saver,
      graphs: {
        made: {
          source: async (config: RunnableConfig, runtime: GraphFactoryRuntime) => {
            calls.push([config, runtime]);
            return builder();
          },
        },
      },
    });

    const graph = await registry.get('made');
    await registry.get('made', { configurable: { user: 'ada' } }, { access: 'threads.create_run', context: { model: 'small' } });
    await registry.get('made', { configurable: { thread_id: 't' } }, { access: 'threads.update', context: { ignored: true } });

    expect(graph.checkpointer).toBe(saver);
    expect(calls).toEqual([
      [{ configurable: {} }, { accessContext: 'assistants.read', executionRuntime: null }],
      [{ configurable: { user: 'ada' } }, { accessContext: 'threads.create_run', executionRuntime: { context: { model: 'small' } } }],
      [{ configurable: { thread_id: 't' } }, { accessContext: 'threads.update', executionRuntime: null }],
    ]);
  });

  it('resolves other exports once, and knows no unknown graph', async () => {
    const registry = createGraphRegistry({ checkpointer: new MemorySaver(), graphs: { built: { source: builder() } } });
    expect(await registry.get('built')).toBe(await registry.get('built', { configurable: { user: 'ada' } }));
    await expect(registry.get('ghost')).rejects.toBeInstanceOf(NotFoundError);
    await expect(registry.typeSchemas('ghost')).rejects.toBeInstanceOf(NotFoundError);
    await expect(registry.typeSchemas('built')).rejects.toThrow('This server reads no TypeScript sources');
  });
});
