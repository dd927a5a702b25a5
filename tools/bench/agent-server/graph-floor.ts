// The floor under any server that runs the bench's graph with LangGraph.js: CPU per `invoke` of the same 1-node graph
// (./graph/echo.graph.ts), in this process, with no HTTP, no database and no checkpointer — what the graph library
// alone costs per run on this host. Compare it with the bench's server CPU per run.
//   npx tsx tools/bench/agent-server/graph-floor.ts [--runs=3000] [--json] [--concurrency=1]
// `--concurrency=N`: N invokes in flight at once (as the bench's 50 clients keep a server), instead of one by one.
// `--json`: one line, `{"plain": <ms>, "memorySaver": <ms>, "serverStream": <ms>}` (CPU per run), for the bench
// (run.ts) to report beside ours. `serverStream` is the graph run as this server runs a stateless run: `stream` with
// the options the server passes (config ids, metadata, stream mode, signal, run control), checkpointer off, every
// chunk consumed — the part of the server's CPU per run that is LangGraph's, with the server's options.
import { randomUUID } from 'node:crypto';
import { MemorySaver, RunControl } from '@langchain/langgraph';
import { intOption } from '../options';
import { graph } from './graph/echo.graph';

type Invocable = { invoke(input: unknown, config: unknown): Promise<unknown> };

async function cpuMsPerInvoke(target: Invocable, runs: number, concurrency = 1): Promise<{ cpu: number; wall: number }> {
  const input = (i: number) => ({ messages: [{ role: 'user', content: `hello ${i}` }] });
  for (let i = 0; i < Math.min(300, runs); i++) await target.invoke(input(i), { configurable: { thread_id: `warm-${i}` } });
  const cpu = process.cpuUsage();
  const started = performance.now();
  let next = 0;
  // `concurrency` invokes in flight at once, as a server has them under load (one after another by default).
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < runs) {
        const i = next++;
        await target.invoke(input(i), { configurable: { thread_id: `t-${i}` } });
      }
    }),
  );
  const used = process.cpuUsage(cpu);
  return { cpu: (used.user + used.system) / 1000 / runs, wall: (performance.now() - started) / runs };
}

/** The graph as the server streams a stateless run of it (run-graph-options.ts: graphStreamOptions, withoutCheckpointer). */
function asTheServerStreamsIt(): Invocable {
  const uncheckpointed = graph.withConfig({}) as typeof graph;
  uncheckpointed.checkpointer = false;
  return {
    async invoke(input) {
      const ids = { run_id: randomUUID(), thread_id: randomUUID(), assistant_id: randomUUID(), graph_id: 'echo' };
      const stream = await uncheckpointed.stream(input as never, {
        configurable: { 'x-request-id': `bench-${ids.run_id}`, 'user-agent': 'langgraph-sdk-js', ...ids },
        context: {},
        metadata: { created_by: 'system', ...ids, run_attempt: 1, langgraph_version: '1.7.3', langgraph_plan: 'developer', langgraph_host: 'self-hosted' },
        streamMode: ['values'],
        subgraphs: false,
        signal: new AbortController().signal,
        control: new RunControl(),
        runId: ids.run_id,
      } as never);
      for await (const chunk of stream) void chunk;
    },
  };
}

async function main(): Promise<void> {
  const runs = intOption('runs', 3000);
  const concurrency = intOption('concurrency', 1);
  const withSaver = graph.builder.compile({ checkpointer: new MemorySaver() });
  const json = process.argv.includes('--json');
  const cpuPerRun: Record<string, number> = {};
  for (const [key, name, target] of [
    ['plain', 'graph.invoke, no checkpointer', graph],
    ['memorySaver', 'graph.invoke, MemorySaver', withSaver],
    ['serverStream', 'graph.stream as the server runs it', asTheServerStreamsIt()],
  ] as const) {
    const { cpu, wall } = await cpuMsPerInvoke(target, runs, concurrency);
    cpuPerRun[key] = cpu;
    if (!json) console.log(`${name.padEnd(36)} ${cpu.toFixed(2).padStart(6)} ms CPU per run  ${wall.toFixed(2).padStart(6)} ms wall  (${runs} runs)`);
  }
  if (json) console.log(JSON.stringify(cpuPerRun));
}

main().catch((err) => {
  console.error(err);
  process.exitCode = 1;
});
