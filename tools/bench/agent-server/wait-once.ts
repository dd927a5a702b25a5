import type { Client } from '@langchain/langgraph-sdk';

export const GRAPH_ID = 'echo';

const input = (i: number) => ({ messages: [{ role: 'user', content: `hello ${i}` }] });

/** One stateless `runs.wait` of the bench graph, its answer checked. */
export async function waitOnce(client: Client, i: number): Promise<void> {
  const result = (await client.runs.wait(null, GRAPH_ID, { input: input(i) })) as { messages?: { content: string }[] };
  if (result.messages?.at(-1)?.content !== `echo: hello ${i}`) throw new Error(`unexpected result: ${JSON.stringify(result)}`);
}
