import { DeadlineExceededError, InputError } from '@platform/errors';
import type { CallContext } from './call-context';
import { serverStream } from './handler-adapters';
import { readStream } from './read-stream';
import { aborted, serveStreamRuns, sleep, until, type RunBatchMessage, type RunsTestClient, type StreamRunsMessage } from './grpc.testing';

const TOTAL = 400;
// Big enough that a few batches fill HTTP/2's flow-control window.
const payload = JSON.stringify({ text: 'x'.repeat(64 * 1024) });

const state = { produced: 0, stopped: false, waitingCancelled: false };

async function* streamRuns(req: StreamRunsMessage, ctx: CallContext): AsyncGenerator<RunBatchMessage> {
  state.produced = 0;
  state.stopped = false;
  try {
    if (req.session_id === 'bad-filter') throw new InputError('filter: unexpected token at 4');
    if (req.session_id === 'idle') {
      yield { runs: [], cursor: null };
      await aborted(ctx.signal); // e.g. a slow query that watches the signal
      state.waitingCancelled = true;
      return;
    }
    for (let i = 0; i < TOTAL; i++) {
      state.produced++;
      const id = `run-${String(i).padStart(4, '0')}`;
      const startTime = String(1_700_000_000_000_000 + i);
      yield { runs: [{ id, start_time: startTime, name: 'chain', inputs: payload }], cursor: { start_time: startTime, id } };
    }
  } finally {
    state.stopped = true;
  }
}

let served: Awaited<ReturnType<typeof serveStreamRuns>>;
let client: RunsTestClient;

beforeAll(async () => {
  served = await serveStreamRuns(serverStream(streamRuns));
  client = served.client;
});

afterAll(() => served.stop());

describe('server streaming', () => {
  it('delivers every batch in order, with int64 fields as strings', async () => {
    const ids: string[] = [];
    let last: RunBatchMessage['cursor'] = null;
    for await (const batch of readStream(client, 'StreamRuns', { session_id: 's1' })) {
      ids.push(...batch.runs.map((r) => r.id));
      last = batch.cursor;
    }
    expect(ids).toHaveLength(TOTAL);
    expect(ids[0]).toBe('run-0000');
    expect(last).toEqual({ start_time: String(1_700_000_000_000_000 + TOTAL - 1), id: `run-0${TOTAL - 1}` });
    expect(state.stopped).toBe(true);
  });

  it('holds the producer back while the consumer is slow, and stops it when the consumer leaves', async () => {
    let read = 0;
    for await (const _batch of readStream(client, 'StreamRuns', { session_id: 's1' })) {
      read++;
      if (read === 1) {
        await sleep(300);
        // Only what fits in the buffers was produced, not the whole stream.
        expect(state.produced).toBeLessThan(TOTAL / 4);
      }
      if (read === 3) break;
    }
    await until(() => state.stopped);
    expect(state.stopped).toBe(true);
    expect(state.produced).toBeLessThan(TOTAL / 4);
  });

  it('cancels through an AbortSignal, which also aborts the handler’s signal', async () => {
    const controller = new AbortController();
    const batches = readStream(client, 'StreamRuns', { session_id: 'idle' }, { signal: controller.signal });
    const first = await batches.next();
    expect(first.value).toEqual({ runs: [], cursor: null, ndjson: null });
    setTimeout(() => controller.abort(new Error('worker shutting down')), 20);
    await expect(batches.next()).rejects.toThrow('worker shutting down');
    await until(() => state.waitingCancelled);
    expect(state.waitingCancelled).toBe(true);
  });

  it('ends the stream with the mapped status of a thrown error', async () => {
    const read = async () => {
      for await (const _ of readStream(client, 'StreamRuns', { session_id: 'bad-filter' })) void _;
    };
    await expect(read()).rejects.toBeInstanceOf(InputError);
    await expect(read()).rejects.toThrow('filter: unexpected token at 4');
  });

  it('throws DeadlineExceededError when the stream outlives its deadline', async () => {
    const read = async () => {
      for await (const _ of readStream(client, 'StreamRuns', { session_id: 'idle' }, { deadlineMs: 100 })) void _;
    };
    await expect(read()).rejects.toBeInstanceOf(DeadlineExceededError);
  });
});
