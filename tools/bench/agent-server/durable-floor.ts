// The floor of a durable server: the least any server does for a stateless `runs.wait` that survives its process
// (a run row written before the graph runs and ended after it, as this Agent Server does so that a run is never
// lost), with no framework. A bare `node:http` server: read and parse the JSON body, check the gateway signature,
// insert the run (one prepared statement), stream the graph as the server does (graph-floor.ts's `serverStream`:
// the server's options, checkpointer off), end the run with its output (one prepared statement), answer the final
// values as JSON. No queue, no NOTIFY, no events, no metrics, no access log, no validation beyond the input's shape:
// what is left is LangGraph.js, Node's HTTP and the Postgres driver. run.ts measures it beside this server with
// `--durable-floor`; between the two lies what this server's own code (and express) costs per run.
//   npx tsx tools/bench/agent-server/durable-floor.ts --port=<port> (DATABASE_URL, DURABLE_FLOOR_SECRET)
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { RunControl } from '@langchain/langgraph';
import { Pool } from 'pg';
import { verifyIdentity } from '@platform/identity';
import { intOption } from '../options';
import { graph } from './graph/echo.graph';

const INSERT_RUN = {
  name: 'floor_insert_run',
  text: "INSERT INTO floor_runs (run_id, thread_id, assistant_id, status, kwargs) VALUES ($1, $2, $3, 'running', $4)",
};
const END_RUN = {
  name: 'floor_end_run',
  text: "UPDATE floor_runs SET status = 'success', output = $2, updated_at = now() WHERE run_id = $1",
};

/** LangChain messages as the API answers them (type and fields), everything else as it is. */
function answerJson(this: Record<string, unknown>, key: string, value: unknown): unknown {
  // `value` has been through the message's own toJSON (LangChain's constructor form) already: look at the original.
  const message = this[key] as { getType?: () => string; content?: unknown; id?: string; name?: string; additional_kwargs?: unknown; response_metadata?: unknown };
  if (message && typeof message.getType === 'function') {
    return { type: message.getType(), content: message.content, id: message.id, name: message.name, additional_kwargs: message.additional_kwargs, response_metadata: message.response_metadata };
  }
  return value;
}

function readJson(req: IncomingMessage): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      try {
        resolve(JSON.parse(Buffer.concat(chunks).toString('utf8')));
      } catch (err) {
        reject(err);
      }
    });
    req.on('error', reject);
  });
}

async function main(): Promise<void> {
  const secret = process.env.DURABLE_FLOOR_SECRET ?? '';
  const pool = new Pool({ connectionString: process.env.DATABASE_URL, max: 10 });
  await pool.query(
    `CREATE TABLE IF NOT EXISTS floor_runs (run_id uuid PRIMARY KEY, thread_id uuid NOT NULL, assistant_id text NOT NULL, status text NOT NULL,
       kwargs jsonb NOT NULL, output jsonb, created_at timestamptz NOT NULL DEFAULT now(), updated_at timestamptz NOT NULL DEFAULT now())`,
  );
  const uncheckpointed = graph.withConfig({}) as typeof graph;
  uncheckpointed.checkpointer = false;

  async function wait(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const requestId = String(req.headers['x-request-id'] ?? '');
    const body = (await readJson(req)) as { assistant_id?: string; input?: unknown };
    if (!verifyIdentity(secret, req.headers, requestId).ok) return void res.writeHead(403).end('{"detail":"Forbidden"}');
    if (typeof body.input !== 'object' || body.input === null) return void res.writeHead(422).end('{"detail":"input"}');
    const ids = { run_id: randomUUID(), thread_id: randomUUID(), assistant_id: String(body.assistant_id), graph_id: 'echo' };
    await pool.query({ ...INSERT_RUN, values: [ids.run_id, ids.thread_id, ids.assistant_id, JSON.stringify(body)] });
    const stream = await uncheckpointed.stream(body.input as never, {
      configurable: { 'x-request-id': requestId, ...ids },
      metadata: { created_by: 'system', ...ids, run_attempt: 1 },
      streamMode: ['values'],
      signal: new AbortController().signal,
      control: new RunControl(),
      runId: ids.run_id,
    } as never);
    let values: unknown;
    for await (const [, chunk] of stream as AsyncIterable<[string, unknown]>) values = chunk;
    const output = JSON.stringify(values, answerJson);
    await pool.query({ ...END_RUN, values: [ids.run_id, output] });
    res.writeHead(200, { 'content-type': 'application/json', 'content-location': `/threads/${ids.thread_id}/runs/${ids.run_id}` }).end(output);
  }

  const server = createServer((req, res) => {
    if (req.url === '/ok') return void res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
    if (req.method !== 'POST' || req.url !== '/runs/wait') return void res.writeHead(404).end('{"detail":"Not Found"}');
    wait(req, res).catch((err: unknown) => {
      console.error(err);
      if (!res.headersSent) res.writeHead(500);
      res.end();
    });
  });
  // As this server's (start-http-server.ts): idle keep-alive connections outlive the clients' pauses between rounds.
  server.keepAliveTimeout = 65_000;
  server.listen(intOption('port', 1), '127.0.0.1');
  // Exit normally on SIGTERM, so that --cpu-prof writes its profile.
  process.on('SIGTERM', () => void pool.end().finally(() => process.exit(0)));
}

main().catch((err) => {
  console.error(err);
  process.exitCode = 1;
});
