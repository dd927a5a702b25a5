import { randomUUID } from 'node:crypto';
import { compileMessageEncoder, type MessageDescriptor } from '@platform/grpc';
import type { RunBatch, RunBatch__Output } from './runs.contract';
import { runsService } from './runs.contract';

// StreamRuns' responses go out through an encoder compiled from the descriptor; protobufjs' serializer (kept on
// the message type) is the reference: the bytes must be the same, and they must decode to the same batch.
describe('RunBatch encoding (compiled encoder vs protobufjs)', () => {
  const method = runsService().definition.StreamRuns as unknown as {
    responseSerialize: (batch: RunBatch) => Buffer;
    responseDeserialize: (bytes: Buffer) => unknown;
    responseType: { serialize: (batch: RunBatch) => Buffer; type: MessageDescriptor };
  };
  const reference = method.responseType.serialize;

  const expectSameBytes = (batch: RunBatch) => {
    const ours = method.responseSerialize(batch);
    expect(ours.equals(reference(batch))).toBe(true);
    expect(method.responseDeserialize(ours)).toEqual(method.responseDeserialize(reference(batch)));
  };

  it('is the serializer grpc-js uses for StreamRuns, compiled once per process', () => {
    expect(method.responseSerialize).not.toBe(reference);
    expect(runsService().definition.StreamRuns.responseSerialize).toBe(method.responseSerialize);
  });

  it('writes every field kind as protobufjs does: strings, repeated strings, int64 strings and numbers, bools, the cursor', () => {
    const id = randomUUID();
    expectSameBytes({
      runs: [
        {
          id,
          tenant_id: randomUUID(),
          session_id: randomUUID(),
          trace_id: id,
          parent_run_ids: [randomUUID(), '', randomUUID()],
          name: 'ChatModel',
          run_type: 'llm',
          start_time: '1763683200123456',
          end_time: 1763683200999999,
          status: 'success',
          is_root: false,
          dotted_order: `20251121T000000123456Z${id}`,
          inputs: JSON.stringify({ messages: [{ role: 'user', content: 'x'.repeat(2_000) }] }),
          outputs: '',
          tags: ['a', 'ü', ''],
          total_tokens: '0',
          prompt_tokens: '9223372036854775807',
          completion_tokens: '-1',
          total_cost: '0.000123',
        },
        { id: randomUUID(), start_time: '0', is_root: true },
        {},
      ],
      cursor: { start_time: '1763683200123456', id },
    });
  });

  it('measures UTF-8 lengths right around the one-byte length prefix and across surrogate pairs', () => {
    const texts = ['', 'a'.repeat(42), 'a'.repeat(43), 'é'.repeat(42), 'é'.repeat(43), '😀'.repeat(21), '😀'.repeat(22), '€'.repeat(128), 'a'.repeat(127), 'a'.repeat(128), 'a'.repeat(16_384)];
    for (const name of texts) expectSameBytes({ runs: [{ id: 'x', name, tags: [name, name] }] });
  });

  it('grows past its scratch buffer for large batches and nested lengths over two bytes', () => {
    const runs = Array.from({ length: 300 }, (_, i) => ({ id: randomUUID(), start_time: String(1_763_683_200_000_000 + i), inputs: 'i'.repeat(i * 37), outputs: 'o'.repeat(20_000) }));
    expectSameBytes({ runs, cursor: { start_time: runs[299].start_time, id: runs[299].id } });
    expectSameBytes({ runs: [{ id: 'small' }] }); // the grown scratch is reused: nothing of the last batch leaks
  });

  it('writes NDJSON batches (bytes, int32) as protobufjs does, from a Buffer or a Uint8Array, small or large', () => {
    const cursor = { start_time: '1763683200123456', id: randomUUID() };
    const small = Buffer.from('{"id" : "a"}\n');
    const large = Buffer.from(`${JSON.stringify({ inputs: 'x'.repeat(70_000) })}\n`.repeat(3));
    expectSameBytes({ ndjson: { lines: small, count: 1, max_line_bytes: small.length - 1 }, cursor });
    expectSameBytes({ ndjson: { lines: new Uint8Array(large), count: 3, max_line_bytes: large.length / 3 - 1 }, cursor });
    expectSameBytes({ ndjson: { lines: Buffer.alloc(0), count: 0, max_line_bytes: 0 } });
    // Tracing sends a page's batches as views of one buffer: only the view's bytes are written.
    const page = Buffer.concat([small, large, small]);
    expectSameBytes({ ndjson: { lines: page.subarray(small.length, small.length + large.length), count: 3, max_line_bytes: large.length / 3 - 1 }, cursor });
    const decoded = method.responseDeserialize(method.responseSerialize({ ndjson: { lines: large, count: 3, max_line_bytes: 7 }, cursor })) as RunBatch__Output;
    expect(decoded.ndjson!.lines.equals(large)).toBe(true);
    expect(decoded.runs).toEqual([]);
  });

  it('returns a copy of each message, or with `view` its scratch bytes, valid until the next call (what grpc-js frames at once)', () => {
    const message: MessageDescriptor = { field: [{ name: 'name', number: 1, label: 'LABEL_OPTIONAL', type: 'TYPE_STRING' }] };
    const copying = compileMessageEncoder(message, () => undefined)!;
    const first = copying({ name: 'first' });
    copying({ name: 'other' });
    expect(first.equals(Buffer.from([0x0a, 5, ...Buffer.from('first')]))).toBe(true);

    const viewing = compileMessageEncoder(message, () => undefined, { view: true })!;
    const view = viewing({ name: 'first' });
    expect(view.equals(first)).toBe(true);
    viewing({ name: 'other' });
    expect(view.toString('latin1', 2)).toBe('other');
  });

  it('declines messages with types it does not write (protobufjs keeps serving them)', () => {
    const withDouble: MessageDescriptor = { field: [{ name: 'ratio', number: 1, label: 'LABEL_OPTIONAL', type: 'TYPE_DOUBLE' }] };
    const withPackedInts: MessageDescriptor = { field: [{ name: 'ns', number: 1, label: 'LABEL_REPEATED', type: 'TYPE_INT64' }] };
    const withUnknownNested: MessageDescriptor = { field: [{ name: 'x', number: 1, label: 'LABEL_OPTIONAL', type: 'TYPE_MESSAGE', typeName: 'Nope' }] };
    expect(compileMessageEncoder(withDouble, () => undefined)).toBeUndefined();
    expect(compileMessageEncoder(withPackedInts, () => undefined)).toBeUndefined();
    expect(compileMessageEncoder(withUnknownNested, () => undefined)).toBeUndefined();
  });
});
