import { Readable } from 'node:stream';
import { PassThrough } from 'node:stream';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { PayloadTooLargeError, RequestBodyError, UnsupportedEncodingError, decodeBody, readAll, readBody } from './request-body';

const TEXT = 'hello zstd, hello zstd, hello zstd! {"a": [1,2,3]}\n'.repeat(20);
// `zstd -19` of TEXT: a real compressed frame (the raw frames of zstdRawFrame skip the entropy decoder).
const ZSTD_FIXTURE = 'KLUv/WT8Aj0BAOhoZWxsbyB6c3RkLCAhIHsiYSI6IFsxLDIsM119CgIAjVtVrSslCZ+jjX4=';

const chunks = (data: Buffer, size = 5) => Readable.from((function* () { for (let i = 0; i < data.length; i += size) yield data.subarray(i, i + size); })());
const decode = (data: Buffer, encoding?: string, maxBytes = 1 << 20, length?: number) =>
  readAll(decodeBody(chunks(data), encoding, length === undefined ? undefined : String(length), { maxBytes })).then((b) => b.toString());

describe('decodeBody', () => {
  it('passes plain bodies and decodes gzip and zstd ones, streamed', async () => {
    expect(await decode(Buffer.from(TEXT))).toBe(TEXT);
    expect(await decode(Buffer.from(TEXT), 'identity')).toBe(TEXT);
    expect(await decode(gzipSync(TEXT), 'gzip')).toBe(TEXT);
    expect(await decode(Buffer.from(ZSTD_FIXTURE, 'base64'), 'ZSTD')).toBe(TEXT);
    expect(await decode(brotliCompressSync(TEXT), 'br')).toBe(TEXT);
  });

  it('turns bad compressed data and a body cut short into the client’s error (400), naming the problem', async () => {
    await expect(decode(Buffer.from('not gzip at all'), 'gzip')).rejects.toThrow(RequestBodyError);
    await expect(decode(Buffer.from('not brotli at all'), 'br')).rejects.toThrow(/not valid br \(Content-Encoding: br\)/);
    const cut = new PassThrough();
    const reading = readAll(decodeBody(cut, undefined, undefined, { maxBytes: 100 }));
    cut.write('{"a": ');
    cut.destroy(Object.assign(new Error('aborted'), { code: 'ECONNRESET' }));
    await expect(reading).rejects.toThrow(new RequestBodyError('Request body ended early: aborted'));
    await expect(decode(Buffer.from('not zstd at all'), 'zstd')).rejects.toThrow(/not valid zstd/);
    await expect(decode(gzipSync(TEXT).subarray(0, 20), 'gzip')).rejects.toThrow(/not valid gzip/);
  });

  it('refuses unknown encodings with 415 and bodies over the limit with 413, before or after decoding', async () => {
    expect(() => decodeBody(chunks(Buffer.from('x')), 'compress', undefined, { maxBytes: 10 })).toThrow(UnsupportedEncodingError);
    expect(() => decodeBody(chunks(Buffer.from('x')), undefined, '11', { maxBytes: 10 })).toThrow(PayloadTooLargeError);
    await expect(decode(Buffer.from('x'.repeat(11)), undefined, 10)).rejects.toThrow(PayloadTooLargeError);
    // Refused as the bytes arrive: the source is still open when the limit is passed.
    const open = new PassThrough();
    const refused = readAll(decodeBody(open, undefined, undefined, { maxBytes: 10 }));
    open.write('x'.repeat(11));
    await expect(refused).rejects.toThrow(PayloadTooLargeError);
    expect(open.writableEnded).toBe(false);
    // A zip bomb: small as sent, over the limit once decoded.
    await expect(decode(gzipSync('x'.repeat(100_000)), 'gzip', 1000)).rejects.toThrow(/Decoded request body/);
  });
});

describe('readBody', () => {
  const read = (data: Buffer, encoding?: string, maxBytes = 1 << 20, length?: number) =>
    readBody(chunks(data), encoding, length === undefined ? undefined : String(length), { maxBytes }).then((b) => b.toString());

  it('reads a body sent as is straight from the source, and decodes the others as decodeBody does', async () => {
    expect(await read(Buffer.from(TEXT))).toBe(TEXT);
    expect(await read(Buffer.from(TEXT), ' Identity ')).toBe(TEXT);
    expect(await read(Buffer.from('{}'))).toBe('{}');
    expect(await read(Buffer.alloc(0))).toBe('');
    expect(await read(gzipSync(TEXT), 'gzip')).toBe(TEXT);
    await expect(read(Buffer.from('not gzip at all'), 'gzip')).rejects.toThrow(RequestBodyError);
  });

  it('refuses a body over the limit (413) as declared and as it arrives, leaving the rest unread', async () => {
    expect(() => readBody(chunks(Buffer.from('x')), undefined, '11', { maxBytes: 10 })).toThrow(new PayloadTooLargeError('Request body is larger than 10 bytes'));
    await expect(read(Buffer.from('x'.repeat(11)), undefined, 10)).rejects.toThrow(new PayloadTooLargeError('Request body is larger than 10 bytes'));
    const open = new PassThrough();
    const refused = readBody(open, undefined, undefined, { maxBytes: 10 });
    open.write('x'.repeat(11));
    await expect(refused).rejects.toThrow(PayloadTooLargeError);
    expect(open.writableEnded).toBe(false);
    expect(open.listenerCount('data')).toBe(0);
  });

  it('turns a body cut short into the client’s error (400)', async () => {
    const cut = new PassThrough();
    const reading = readBody(cut, undefined, undefined, { maxBytes: 100 });
    cut.write('{"a": ');
    cut.destroy(Object.assign(new Error('aborted'), { code: 'ECONNRESET' }));
    await expect(reading).rejects.toThrow(new RequestBodyError('Request body ended early: aborted'));
    const closed = new PassThrough();
    const unfinished = readBody(closed, undefined, undefined, { maxBytes: 100 });
    closed.write('{"a": ');
    closed.destroy();
    await expect(unfinished).rejects.toThrow(RequestBodyError);
  });
});
