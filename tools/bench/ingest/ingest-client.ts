// One client process of the ingest benchmark (forked by run.ts): a langsmith `Client` with its default batching,
// sending traces of a chain with two LLM children as the SDK's RunTree does (create at start, update at end).
// Reports how many traces it sent and when its queue drained.
import { Client, RunTree } from 'langsmith';

export interface IngestJob {
  apiUrl: string;
  apiKey: string;
  workspaceId: string;
  project: string;
  traces: number;
  /** Traces in flight at once in this process. */
  concurrency: number;
}

export interface IngestReport {
  traces: number;
  runs: number;
  seconds: number;
}

/** A small deterministic PRNG, so every run of the benchmark sends the same data. */
function random(seed: number): () => number {
  let state = seed >>> 0 || 1;
  return () => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) / 2 ** 32;
  };
}

// A vocabulary of 2,000 made-up words: text from it compresses about as well as prose (gzip ~2.5-3x), unlike
// a repeated phrase, which would make compression (client) and decompression (server) unrealistically cheap.
const letters = 'etaoinshrdlcumwfgypbvkjxqz';
const next = random(7);
const VOCABULARY = Array.from({ length: 2000 }, () =>
  Array.from({ length: 2 + Math.floor(next() * 8) }, () => letters[Math.floor(next() ** 1.6 * letters.length)]).join(''),
);

/** About `bytes` of text. */
function text(bytes: number, seed: number): string {
  const pick = random(seed * 2654435761);
  const words: string[] = [];
  let length = 0;
  while (length < bytes) {
    const word = VOCABULARY[Math.floor(pick() ** 2 * VOCABULARY.length)];
    words.push(word);
    length += word.length + 1;
  }
  return words.join(' ');
}

async function trace(client: Client, project: string, n: number): Promise<void> {
  const root = new RunTree({ name: 'agent', run_type: 'chain', inputs: { question: text(1000, n * 5) }, client, project_name: project });
  await root.postRun();
  for (let i = 0; i < 2; i++) {
    const llm = root.createChild({ name: 'chat-model', run_type: 'llm', inputs: { messages: [{ role: 'user', content: text(1000, n * 5 + 1 + i) }] } });
    await llm.postRun();
    await llm.end({
      generations: [[{ text: text(1000, n * 5 + 3 + i) }]],
      usage_metadata: { input_tokens: 250, output_tokens: 120, total_tokens: 370 },
    });
    await llm.patchRun();
  }
  await root.end({ answer: text(1000, n * 5 + 5) });
  await root.patchRun();
}

async function run(job: IngestJob): Promise<IngestReport> {
  const client = new Client({ apiUrl: job.apiUrl, apiKey: job.apiKey, workspaceId: job.workspaceId });
  const started = performance.now();
  let next = 0;
  const worker = async () => {
    while (next < job.traces) await trace(client, job.project, next++);
  };
  await Promise.all(Array.from({ length: job.concurrency }, worker));
  await client.awaitPendingTraceBatches();
  return { traces: job.traces, runs: job.traces * 3, seconds: (performance.now() - started) / 1000 };
}

const reply = (message: unknown) => process.send?.(message);

process.on('message', (job: IngestJob) => {
  run(job).then(
    (result) => reply({ result }),
    (err: unknown) => reply({ error: String((err as Error)?.stack ?? err) }),
  );
});
// Loaded (modules compiled and imported): the parent starts its clock once every client is ready.
reply({ ready: true });
