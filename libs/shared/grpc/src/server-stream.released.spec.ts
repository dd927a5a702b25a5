import type { CallContext } from './call-context';
import { serverStream } from './handler-adapters';
import { readStream } from './read-stream';
import { serveStreamRuns, sleep, until, type RunBatchMessage, type RunsTestClient, type StreamRunsMessage } from './grpc.testing';

// Messages that view reused buffers, as StreamRuns' pages do: each buffer is refilled for a later message as soon
// as `released` reports the message that viewed it, so a release before grpc-js has serialized the message would
// put a later message's bytes on the wire.
const BYTES = 256 * 1024;
const BUFFERS = 3;
const MAX_UNRELEASED = 2;

const state = { yielded: 0, released: 0, maxUnreleased: 0, stopped: false, releasedTwice: 0 };
const free: Buffer[] = [];
const owner = new Map<RunBatchMessage, Buffer>();
let wake: (() => void) | undefined;

const fill = (buffer: Buffer, i: number) => buffer.fill(`message ${i};`);

async function* reusing(req: StreamRunsMessage, _ctx: CallContext): AsyncGenerator<RunBatchMessage> {
  state.stopped = false;
  try {
    for (let i = 0; i < req.batch_size; i++) {
      while (free.length === 0) await new Promise<void>((resolve) => (wake = resolve));
      const buffer = free.pop()!;
      fill(buffer, i);
      const message: RunBatchMessage = { runs: [], cursor: { start_time: String(i), id: `m${i}` }, ndjson: { lines: buffer, count: 1, max_line_bytes: BYTES } };
      owner.set(message, buffer);
      state.yielded++;
      state.maxUnreleased = Math.max(state.maxUnreleased, state.yielded - state.released);
      yield message;
    }
  } finally {
    state.stopped = true;
  }
}

function released(message: RunBatchMessage): void {
  const buffer = owner.get(message);
  if (!buffer) {
    state.releasedTwice++;
    return;
  }
  owner.delete(message);
  state.released++;
  free.push(buffer);
  wake?.();
}

let served: Awaited<ReturnType<typeof serveStreamRuns>>;
let client: RunsTestClient;

beforeAll(async () => {
  served = await serveStreamRuns(serverStream(reusing, { released, maxUnreleased: MAX_UNRELEASED }));
  client = served.client;
});

afterAll(() => served.stop());

beforeEach(() => {
  Object.assign(state, { yielded: 0, released: 0, maxUnreleased: 0, releasedTwice: 0 });
  free.length = 0;
  owner.clear();
  for (let i = 0; i < BUFFERS; i++) free.push(Buffer.alloc(BYTES));
});

describe('server streaming with released messages', () => {
  it('releases each message once grpc-js is done with it, never while its bytes may still be read', async () => {
    const expected = Buffer.alloc(BYTES);
    let seen = 0;
    for await (const batch of readStream(client, 'StreamRuns', { batch_size: 60 })) {
      fill(expected, seen);
      expect(batch.cursor?.id).toBe(`m${seen}`);
      expect(Buffer.compare(batch.ndjson!.lines, expected)).toBe(0);
      seen++;
      if (seen % 20 === 0) await sleep(50); // the client falls behind: messages queue in grpc-js
    }
    expect(seen).toBe(60);
    expect({ released: state.released, twice: state.releasedTwice, stopped: state.stopped }).toEqual({ released: 60, twice: 0, stopped: true });
    expect(state.maxUnreleased).toBeLessThanOrEqual(MAX_UNRELEASED);
  });

  it('releases every message written but not sent when the client cancels', async () => {
    let seen = 0;
    for await (const _batch of readStream(client, 'StreamRuns', { batch_size: 1000 })) {
      if (++seen === 3) {
        await sleep(100); // let the server fill what the connection holds
        break;
      }
    }
    await until(() => state.stopped && state.released === state.yielded);
    expect(state.stopped).toBe(true);
    expect(state.yielded).toBeLessThan(1000);
    expect({ released: state.released, twice: state.releasedTwice }).toEqual({ released: state.yielded, twice: 0 });
    expect(free).toHaveLength(BUFFERS);
  });
});
