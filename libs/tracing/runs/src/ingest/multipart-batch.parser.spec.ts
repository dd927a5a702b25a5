import { Readable } from 'node:stream';
import { ValidationError } from '@platform/errors';
import { parseMultipartBatch } from './multipart-batch.parser';
import { InvalidUtf8Error, MAX_JSON_DEPTH, PayloadTooLargeError } from '@platform/http-server';

const BOUNDARY = '----LangSmithFormBoundaryabc123';
const ID = '01a1fe2c-fe42-7000-8000-02b1ab0a641d';
const DOTTED = `20240501T120000000001Z${ID}`;

function body(parts: [name: string, value: string | Buffer, type?: string][]): Buffer {
  const chunks: Buffer[] = [];
  for (const [name, value, type = 'application/json'] of parts) {
    chunks.push(Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"\r\nContent-Type: ${type}; length=${value.length}\r\n\r\n`));
    chunks.push(Buffer.isBuffer(value) ? value : Buffer.from(value), Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${BOUNDARY}--\r\n`));
  return Buffer.concat(chunks);
}

/** The body in 7-byte chunks, as a chunked upload without Content-Length would arrive. */
const trickle = (data: Buffer) => Readable.from((function* () { for (let i = 0; i < data.length; i += 7) yield data.subarray(i, i + 7); })());

const parse = (data: Buffer, limit = 1 << 20, maxAttachmentBytes?: number) =>
  parseMultipartBatch(trickle(data), `multipart/form-data; boundary=${BOUNDARY}`, { maxPartBytes: limit, maxAttachmentBytes });

describe('parseMultipartBatch', () => {
  it('puts each run back together from its parts', async () => {
    const batch = await parse(
      body([
        [`post.${ID}`, JSON.stringify({ id: ID, trace_id: ID, dotted_order: DOTTED, name: 'agent', run_type: 'chain', start_time: '2024-05-01T12:00:00.000001Z' })],
        [`post.${ID}.inputs`, JSON.stringify({ question: 'hi' })],
        [`post.${ID}.extra`, JSON.stringify({ metadata: { a: 1 } })],
        [`patch.${ID}`, JSON.stringify({ id: ID, trace_id: ID, dotted_order: DOTTED, end_time: '2024-05-01T12:00:01Z' })],
        [`patch.${ID}.outputs`, JSON.stringify({ answer: 'hello' })],
        [`patch.${ID}.error`, JSON.stringify('it broke')],
        [`feedback.${ID.replace('1d', '1e')}`, JSON.stringify({ run_id: ID, key: 'correctness', score: true })],
        [`attachment.${ID}.image`, Buffer.from([0, 1, 2, 255]), 'image/png'],
        [`attachment.${ID}.file`, Buffer.from('bytes'), 'application/octet-stream'],
      ]),
    );
    expect(batch.operations).toMatchObject([
      { kind: 'post', id: ID, fields: { name: 'agent', inputs: { question: 'hi' }, extra: { metadata: { a: 1 } } } },
      { kind: 'patch', id: ID, fields: { outputs: { answer: 'hello' }, error: 'it broke', end_time: '2024-05-01T12:00:01.000000Z' } },
    ]);
    expect(batch.feedback).toEqual([expect.objectContaining({ id: ID.replace('1d', '1e'), run_id: ID, key: 'correctness', score: 1 })]);
    expect(batch.attachments).toEqual([
      { runId: ID, name: 'image', contentType: 'image/png', data: Buffer.from([0, 1, 2, 255]) },
      { runId: ID, name: 'file', contentType: 'application/octet-stream', data: Buffer.from('bytes') },
    ]);
  });

  it('keeps attachment bytes exactly, whatever their type, and names with dots after the run id', async () => {
    // A part without a content type is text/plain, as multipart/form-data has it.
    const bytes = Buffer.from(Array.from({ length: 300 }, (_, i) => (i * 7) % 256));
    const batch = await parse(
      body([
        [`attachment.${ID.toUpperCase()}.notes.txt`, Buffer.from('héllo', 'latin1'), 'text/plain; charset=latin1'],
        [`attachment.${ID}.blob`, bytes, ''],
      ]),
    );
    expect(batch.attachments).toEqual([
      { runId: ID, name: 'notes.txt', contentType: 'text/plain', data: Buffer.from('héllo', 'latin1') },
      { runId: ID, name: 'blob', contentType: 'text/plain', data: bytes },
    ]);
  });

  it('refuses an attachment over its size limit with 413, and bad attachment names or ids with 422', async () => {
    const big = await parse(body([[`attachment.${ID}.big`, Buffer.alloc(101), 'image/png']]), 1000, 100).catch((e: unknown) => e);
    expect(big).toBeInstanceOf(PayloadTooLargeError);
    expect((big as Error).message).toBe(`Attachment attachment.${ID}.big is larger than 100 bytes`);
    for (const [name, message] of [
      [`attachment.not-a-uuid.x`, 'not a valid UUID'],
      [`attachment.${ID}.${'n'.repeat(257)}`, '1 to 256 characters'],
      [`attachment.${ID}.tab\there`, 'control characters'],
    ]) {
      const err = await parse(body([[name, Buffer.from('x'), 'image/png']])).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ValidationError);
      expect((err as ValidationError).issues[0].msg).toContain(message);
    }
    const badType = await parse(body([[`attachment.${ID}.x`, Buffer.from('x'), 'not a type']])).catch((e: unknown) => e);
    expect((badType as ValidationError).issues[0].msg).toContain('not a valid MIME type');
  });

  it.each([
    ['an unknown part', [['something', '{}']], ['body', 'something']],
    ['a bad id', [['post.not-a-uuid', '{}']], ['body', 'post.not-a-uuid']],
    ['an unknown field part', [[`post.${ID}.colour`, '{}']], ['body', `post.${ID}.colour`]],
    ['bad JSON in a field part', [[`post.${ID}`, '{}'], [`post.${ID}.inputs`, '{"a": ']], ['body', `post.${ID}.inputs`]],
    ['bad JSON in a run part', [[`patch.${ID}`, 'nope']], ['body', `patch.${ID}`]],
    ['a field part without its run', [[`post.${ID}.inputs`, '{}']], ['body', `post.${ID}`]],
    ['an invalid field value', [[`post.${ID}`, JSON.stringify({ start_time: 'later' })]], ['body', `post.${ID}`, 'start_time']],
    ['feedback without key', [[`feedback.${ID}`, JSON.stringify({ run_id: ID })]], ['body', `feedback.${ID}`, 'key']],
  ] as [string, [string, string][], (string | number)[]][])('answers 422 naming the part for %s', async (_what, parts, loc) => {
    const err = await parse(body(parts)).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ValidationError);
    expect((err as ValidationError).issues[0].loc).toEqual(loc);
  });

  it('refuses a body that is not multipart, or cut short', async () => {
    await expect(parseMultipartBatch(trickle(Buffer.from('{}')), 'application/json', { maxPartBytes: 100 })).rejects.toThrow(/multipart/);
    const cut = body([[`post.${ID}`, '{}']]);
    await expect(parse(cut.subarray(0, cut.length - 20))).rejects.toThrow(/Malformed multipart body/);
  });

  it('refuses a part over the size limit with 413', async () => {
    const err = await parse(body([[`post.${ID}`, JSON.stringify({ name: 'x'.repeat(200) })]]), 100).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PayloadTooLargeError);
    expect(err).toMatchObject({ status: 413 });
  });

  it('refuses JSON parts nested past MAX_JSON_DEPTH with 422 naming the part, and takes them up to it', async () => {
    const nested = (depth: number) => `{"v": ${'['.repeat(depth - 1)}1${']'.repeat(depth - 1)}}`;
    const run = JSON.stringify({ id: ID, trace_id: ID, dotted_order: DOTTED, name: 'deep', run_type: 'chain', start_time: '2024-05-01T12:00:00Z' });
    const ok = await parse(body([[`post.${ID}`, run], [`post.${ID}.inputs`, nested(MAX_JSON_DEPTH)]]));
    expect(ok.operations[0]).toMatchObject({ fields: { inputs: JSON.parse(nested(MAX_JSON_DEPTH)) } });
    for (const depth of [MAX_JSON_DEPTH + 1, 6_000]) {
      for (const parts of [
        [[`post.${ID}`, run], [`post.${ID}.inputs`, nested(depth)]],
        [[`post.${ID}`, `{"inputs": ${nested(depth)}}`]],
        [[`feedback.${ID}`, nested(depth)]],
      ] as [string, string][][]) {
        const err = await parse(body(parts)).catch((e: unknown) => e);
        expect(err).toBeInstanceOf(ValidationError);
        expect((err as ValidationError).issues).toEqual([
          { loc: ['body', parts[parts.length - 1][0]], type: 'json_invalid', msg: expect.stringContaining(`nested deeper than ${MAX_JSON_DEPTH} levels`) },
        ]);
      }
    }
  });

  it('refuses JSON parts that are not UTF-8 with 400 naming the part and the offset, whatever charset the part claims', async () => {
    const run = Buffer.from(JSON.stringify({ id: ID, trace_id: ID, dotted_order: DOTTED, name: 'bytes', run_type: 'chain', start_time: '2024-05-01T12:00:00Z' }));
    for (const offset of [0, 1, 10, run.length - 2, run.length - 1]) {
      for (const type of ['application/json', 'application/json; charset=utf-8', 'text/plain']) {
        const bad = Buffer.concat([run.subarray(0, offset), Buffer.from([0xff]), run.subarray(offset)]);
        for (const [name, parts] of [
          [`post.${ID}`, [[`post.${ID}`, bad, type]]],
          [`post.${ID}.inputs`, [[`post.${ID}`, run], [`post.${ID}.inputs`, bad, type]]],
          [`feedback.${ID}`, [[`feedback.${ID}`, bad, type]]],
        ] as [string, [string, Buffer, string?][]][]) {
          const err = await parse(body(parts)).catch((e: unknown) => e);
          expect(err).toBeInstanceOf(InvalidUtf8Error);
          expect([offset, type, (err as Error).message, (err as InvalidUtf8Error).status]).toEqual([offset, type, expect.stringMatching(new RegExp(`^Part ${name.replace(/\./g, '\\.')} is not valid UTF-8: byte 0xFF at offset ${offset} `)), 400]);
        }
      }
    }
    // Attachments are bytes: anything goes.
    const batch = await parse(body([[`attachment.${ID}.raw`, Buffer.from([0xff, 0xfe, 0x80]), 'text/plain']]));
    expect(batch.attachments[0].data).toEqual(Buffer.from([0xff, 0xfe, 0x80]));
  });
});
