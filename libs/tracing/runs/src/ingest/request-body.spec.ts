import { Readable } from 'node:stream';
import { gzipSync } from 'node:zlib';
import { InputError, ValidationError } from '@platform/errors';
import { PayloadTooLargeError, UnsupportedEncodingError, decodeBody, parseJson, readAll } from './request-body';
import { zstdRawFrame } from './zstd-raw-frame';

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
    expect(await decode(Buffer.from(ZSTD_FIXTURE, 'base64'), 'zstd')).toBe(TEXT);
    const big = Buffer.from('x'.repeat(300_000));
    expect(await decode(zstdRawFrame(big), 'ZSTD', 1 << 20)).toHaveLength(300_000);
  });

  it('turns bad compressed data into a 400', async () => {
    await expect(decode(Buffer.from('not gzip at all'), 'gzip')).rejects.toThrow(InputError);
    await expect(decode(Buffer.from('not zstd at all'), 'zstd')).rejects.toThrow(/not valid zstd/);
    await expect(decode(gzipSync(TEXT).subarray(0, 20), 'gzip')).rejects.toThrow(/not valid gzip/);
  });

  it('refuses unknown encodings with 415 and bodies over the limit with 413, before or after decoding', async () => {
    expect(() => decodeBody(chunks(Buffer.from('x')), 'compress', undefined, { maxBytes: 10 })).toThrow(UnsupportedEncodingError);
    expect(() => decodeBody(chunks(Buffer.from('x')), undefined, '11', { maxBytes: 10 })).toThrow(PayloadTooLargeError);
    await expect(decode(Buffer.from('x'.repeat(11)), undefined, 10)).rejects.toThrow(PayloadTooLargeError);
    // A zip bomb: small as sent, over the limit once decoded.
    await expect(decode(gzipSync('x'.repeat(100_000)), 'gzip', 1000)).rejects.toThrow(/Decoded request body/);
  });
});

describe('parseJson', () => {
  it('answers json_invalid at the given location', () => {
    expect(parseJson('{"a": 1}')).toEqual({ a: 1 });
    expect(() => parseJson('{"a": ', ['body', 'post.x'])).toThrow(ValidationError);
    try {
      parseJson('[', ['body', 'post.x']);
    } catch (err) {
      expect((err as ValidationError).issues[0]).toMatchObject({ loc: ['body', 'post.x'], type: 'json_invalid' });
    }
  });
});
