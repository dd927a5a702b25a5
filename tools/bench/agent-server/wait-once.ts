import type { Client } from '@langchain/langgraph-sdk';

export const GRAPH_ID = 'echo';

const input = (i: number) => ({ messages: [{ role: 'user', content: `hello ${i}` }] });

/** One stateless `runs.wait` of the bench graph, its answer checked. */
export async function waitOnce(client: Client, i: number): Promise<void> {
  const result = (await client.runs.wait(null, GRAPH_ID, { input: input(i) })) as { messages?: { content: string }[] };
  if (result.messages?.at(-1)?.content !== `echo: hello ${i}`) throw new Error(`unexpected result: ${JSON.stringify(result)}`);
}

/** `runs` stateless runs over `clients` at once, each client taking the next run number when it finishes one. */
export async function waitAll(clients: Client[], runs: number, offset = 0): Promise<void> {
  let next = 0;
  await Promise.all(
    clients.map(async (c) => {
      while (next < runs) await waitOnce(c, offset + next++);
    }),
  );
}
