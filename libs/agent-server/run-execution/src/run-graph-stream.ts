import type { AgentGraph } from '@platform/agent-server-graphs';
import type { StreamMapper, MappedEvent } from '@platform/agent-server-run-streams';

type Chunk = [string[], string, unknown] | [string, unknown];

/**
 * The run's SSE events as the graph produces them. `graph.stream` serves every mode but `events`, which needs
 * `streamEvents` (v2): its root `on_chain_stream` events carry the same chunks, every other event is an `events`
 * event of its own.
 */
export async function* graphEvents(
  graph: AgentGraph,
  input: unknown,
  options: Record<string, unknown> & { subgraphs: boolean; runId: string },
  mapper: StreamMapper,
  withEvents: boolean,
): AsyncGenerator<MappedEvent> {
  const split = (chunk: Chunk): [string[], string, unknown] => (options.subgraphs ? (chunk as [string[], string, unknown]) : [[], ...(chunk as [string, unknown])]);
  if (!withEvents) {
    const stream = (await graph.stream(input, options)) as AsyncIterable<Chunk>;
    for await (const chunk of stream) yield* mapper.map(...split(chunk));
    return;
  }
  const events = graph.streamEvents(input, { ...options, version: 'v2' }) as AsyncIterable<{
    event: string;
    run_id: string;
    tags?: string[];
    data: { chunk?: unknown };
  }>;
  for await (const event of events) {
    if (event.event === 'on_chain_stream' && event.run_id === options.runId) {
      yield* mapper.map(...split(event.data.chunk as Chunk));
    } else if (!event.tags?.includes('langsmith:hidden')) {
      yield { event: 'events', data: event };
    }
  }
}
