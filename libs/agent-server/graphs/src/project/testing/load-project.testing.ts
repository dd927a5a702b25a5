// Run by graph-module-loader.spec.ts as plain Node on an esbuild bundle, the way the Agent Server runs in
// production: loads a langgraph.json, invokes each graph once and prints one JSON line per graph.
import { MemorySaver } from '@langchain/langgraph';
import { createGraphRegistry } from '../../graph-registry';
import { toJsonValue } from '../../serialize';
import { loadLangGraphProject } from '../load-langgraph-project';

async function main(configPath: string): Promise<void> {
  const project = await loadLangGraphProject(configPath);
  const registry = createGraphRegistry({ graphs: project.graphs, checkpointer: new MemorySaver() });
  for (const graphId of registry.ids()) {
    const graph = await registry.get(graphId);
    const values = await graph.invoke({ messages: [{ role: 'user', content: 'hi' }] }, { configurable: { thread_id: graphId } });
    process.stdout.write(`${JSON.stringify({ graphId, values: toJsonValue(values) })}\n`);
  }
}

main(process.argv[2]).catch((err: Error) => {
  process.stdout.write(`${JSON.stringify({ error: err.name, message: err.message })}\n`);
  process.exitCode = 1;
});
