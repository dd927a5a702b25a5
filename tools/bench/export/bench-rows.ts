// Synthetic runs shaped exactly like StreamRuns delivers them (int64 as decimal strings, JSON fields as text),
// sized like the tracing fixtures' realistic runs: inputs and outputs of 1–2 KB of hex text each, which
// compresses about as badly as real prose.
import { createHash, randomUUID } from 'node:crypto';

const T0_US = 1_714_521_600_000_000n;

function text(chars: number, seed: number): string {
  let out = '';
  for (let k = 0; out.length < chars; k++) out += `${createHash('md5').update(`${seed}-${k}`).digest('hex')} `;
  return out.slice(0, chars);
}

export type BenchRow = Record<string, unknown>;

/** `count` distinct runs; run i has inputs and outputs of about `payloadChars` × (2 + i % 3) / 3 characters. */
export function makeRunPool(count: number, payloadChars = 1500): BenchRow[] {
  const tenant = randomUUID();
  const session = randomUUID();
  return Array.from({ length: count }, (_, g) => {
    const id = randomUUID();
    const start = T0_US + BigInt(g) * 100n;
    const body = text(Math.floor((payloadChars * (2 + (g % 3))) / 3), g);
    return {
      id,
      tenant_id: tenant,
      session_id: session,
      trace_id: id,
      parent_run_ids: [],
      name: `run-${g}`,
      run_type: ['chain', 'llm', 'tool'][g % 3],
      start_time: start.toString(),
      end_time: (start + 1_500_000n).toString(),
      status: 'success',
      is_root: true,
      dotted_order: `20240501T000000000000Z${id}`,
      inputs: JSON.stringify({ question: `q${g}`, context: body }),
      outputs: JSON.stringify({ answer: body.split('').reverse().join(''), score: g % 100 }),
      extra: JSON.stringify({ metadata: { user: `u${g % 50}`, ls_model: 'gpt-4o-mini' }, runtime: { sdk: 'langsmith-js' } }),
      events: '[]',
      tags: ['bench', `batch-${g % 10}`],
      total_tokens: String(200 + (g % 7)),
      prompt_tokens: String(120 + (g % 7)),
      completion_tokens: '80',
      total_cost: '0.0002000000',
      prompt_cost: '0.0001200000',
      completion_cost: '0.0000800000',
      first_token_time: (start + 300_000n).toString(),
    };
  });
}

/**
 * Batches of `batchSize` rows cycling through the pool, each row a shallow copy with a fresh position (as
 * gRPC decoding makes fresh objects), so generating costs next to nothing compared with writing.
 */
export function* runBatches(pool: readonly BenchRow[], total: number, batchSize: number): Generator<BenchRow[]> {
  for (let done = 0; done < total; done += batchSize) {
    const n = Math.min(batchSize, total - done);
    const batch = new Array<BenchRow>(n);
    for (let i = 0; i < n; i++) {
      const row = pool[(done + i) % pool.length];
      batch[i] = { ...row, start_time: (T0_US + BigInt(done + i) * 100n).toString() };
    }
    yield batch;
  }
}
