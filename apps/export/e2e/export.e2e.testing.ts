// Shared by the bulk-export end-to-end tests: reading an export back the way a data lake would (DuckDB over the
// files s3rver keeps on disk, Hive partitioning on), listing its object keys, polling, and sending traces with the
// langsmith SDK.
import { createHash } from 'node:crypto';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { RunTree, type Client } from 'langsmith';
import { TEST_S3_CREDENTIALS } from '@platform/export-s3/testing';

const S3RVER_SUFFIX = '._S3rver_object';

/** Polls `probe` until `done` holds for its value; fails naming `what` and the last value after `timeoutMs`. */
export async function waitFor<T>(what: string, probe: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 30_000, everyMs = 100): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; last value: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}

/** Where the objects under `keyPrefix` of `bucket` live on s3rver's disk. */
export function objectsDir(s3Directory: string, bucket: string, keyPrefix: string): string {
  return path.join(s3Directory, bucket, keyPrefix);
}

/** Object keys under `keyPrefix` (relative to it), sorted. */
export function objectKeys(s3Directory: string, bucket: string, keyPrefix: string): string[] {
  const dir = objectsDir(s3Directory, bucket, keyPrefix);
  try {
    return readdirSync(dir, { recursive: true, encoding: 'utf8' })
      .filter((f) => f.endsWith(S3RVER_SUFFIX))
      .map((f) => f.slice(0, -S3RVER_SUFFIX.length))
      .sort();
  } catch {
    return [];
  }
}

/** Runs `sql` in DuckDB with `{files}` replaced by read_parquet over every object under `dir`, Hive partitions on. */
export async function queryParquet(dir: string, sql: string): Promise<Record<string, unknown>[]> {
  const duck = await DuckDBInstance.create(':memory:', { threads: '1' });
  const connection = await duck.connect();
  try {
    await connection.run(`SET TimeZone = 'UTC'`);
    const files = `read_parquet('${path.join(dir, '**', `*${S3RVER_SUFFIX}`)}', hive_partitioning = true)`;
    const reader = await connection.runAndReadAll(sql.replace('{files}', files));
    return reader.getRowObjectsJson() as Record<string, unknown>[];
  } finally {
    connection.closeSync();
    duck.closeSync();
  }
}

/** Column name → DuckDB type of the files under `dir` (Hive partition columns included). */
export async function parquetColumnTypes(dir: string): Promise<Record<string, string>> {
  const rows = await queryParquet(dir, 'DESCRIBE SELECT * FROM {files}');
  return Object.fromEntries(rows.map((r) => [r.column_name as string, r.column_type as string]));
}

export interface ApiReply {
  status: number;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any;
}

/** A JSON client of `baseUrl` sending `headers()` with every request. */
export function jsonApi(baseUrl: string, headers: () => Record<string, string>) {
  return async (method: string, route: string, body?: unknown): Promise<ApiReply> => {
    const res = await fetch(`${baseUrl}${route}`, {
      method,
      headers: { 'content-type': 'application/json', ...headers() },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : undefined };
  };
}

/** Creates an S3 destination on s3rver (its fixed credentials) through `api`; returns its id. */
export async function createS3Destination(api: ReturnType<typeof jsonApi>, displayName: string, config: Record<string, unknown>): Promise<string> {
  const created = await api('POST', '/bulk-exports/destinations', { destination_type: 's3', display_name: displayName, config, credentials: TEST_S3_CREDENTIALS });
  expect(created.status).toBe(200);
  return created.body.id as string;
}

/** About `chars` characters of hex words: compresses about as badly as real prose, like the tracing fixtures. */
export function payloadText(chars: number, seed: string): string {
  let out = '';
  for (let k = 0; out.length < chars; k++) out += `${createHash('md5').update(`${seed}-${k}`).digest('hex')} `;
  return out.slice(0, chars);
}

/** A run as the test sent it through the SDK, to compare with what the export holds. */
export interface SentRun {
  id: string;
  trace_id: string;
  parent_run_id: string | null;
  name: string;
  run_type: string;
  /** Epoch ms. */
  start_time: number;
  inputs: Record<string, unknown>;
  outputs: Record<string, unknown> | null;
  error: string | null;
  tags: string[];
  total_tokens: number | null;
}

/**
 * Sends one trace per start time with the langsmith SDK's RunTree (create at start, update at end, multipart
 * batches): a `chain` root with an `llm` child reporting token usage and a `tool` child that fails every fifth
 * trace. Inputs and outputs are 1–2 KB. Returns every run sent.
 */
export async function sendTraces(client: Client, project: string, startsMs: readonly number[]): Promise<SentRun[]> {
  const sent: SentRun[] = [];
  for (const [n, start] of startsMs.entries()) {
    const seed = `${project}-${n}`;
    const rootInputs = { question: `question ${n}`, context: payloadText(1_000 + (n % 3) * 400, `${seed}-in`) };
    const root = new RunTree({ name: 'agent', run_type: 'chain', inputs: rootInputs, start_time: start, client, project_name: project, tags: ['e2e', `trace-${n % 4}`], extra: { metadata: { user: `u${n % 5}` } } });
    await root.postRun();
    const llmInputs = { messages: [{ role: 'user', content: payloadText(1_200, `${seed}-llm-in`) }] };
    const llm = root.createChild({ name: 'chat-model', run_type: 'llm', inputs: llmInputs, start_time: start + 100 });
    await llm.postRun();
    const llmOutputs = { generations: [[{ text: payloadText(1_500, `${seed}-llm-out`) }]], usage_metadata: { input_tokens: 250, output_tokens: 120, total_tokens: 370 } };
    await llm.end(llmOutputs, undefined, start + 900);
    await llm.patchRun();
    const failing = n % 5 === 0;
    const toolInputs = { query: `lookup ${n}` };
    const tool = root.createChild({ name: 'search', run_type: 'tool', inputs: toolInputs, start_time: start + 1_000 });
    await tool.postRun();
    const toolOutputs = failing ? undefined : { hits: [payloadText(300, `${seed}-hit`)] };
    await tool.end(toolOutputs, failing ? 'ToolException: search backend unavailable' : undefined, start + 1_200);
    await tool.patchRun();
    const rootOutputs = { answer: payloadText(1_100 + (n % 4) * 300, `${seed}-out`) };
    await root.end(rootOutputs, undefined, start + 1_500);
    await root.patchRun();
    const base = { trace_id: root.id, error: null, total_tokens: null };
    sent.push(
      { ...base, id: root.id, parent_run_id: null, name: 'agent', run_type: 'chain', start_time: start, inputs: rootInputs, outputs: rootOutputs, tags: ['e2e', `trace-${n % 4}`], total_tokens: 370 },
      { ...base, id: llm.id, parent_run_id: root.id, name: 'chat-model', run_type: 'llm', start_time: start + 100, inputs: llmInputs, outputs: llmOutputs, tags: [], total_tokens: 370 },
      {
        ...base,
        id: tool.id,
        parent_run_id: root.id,
        name: 'search',
        run_type: 'tool',
        start_time: start + 1_000,
        inputs: toolInputs,
        outputs: toolOutputs ?? null,
        error: failing ? 'ToolException: search backend unavailable' : null,
        tags: [],
      },
    );
  }
  await client.awaitPendingTraceBatches();
  return sent;
}
