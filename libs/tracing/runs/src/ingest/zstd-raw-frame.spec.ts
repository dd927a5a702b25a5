import { Readable } from 'node:stream';
import { decodeBody, readAll } from '@platform/http-server';
import { zstdRawFrame } from './zstd-raw-frame';

describe('zstdRawFrame', () => {
  it('makes a frame the ingest routes decode, streamed in chunks', async () => {
    const big = Buffer.from('x'.repeat(300_000));
    const frame = zstdRawFrame(big);
    const source = Readable.from((function* () { for (let i = 0; i < frame.length; i += 4096) yield frame.subarray(i, i + 4096); })());
    expect(await readAll(decodeBody(source, 'zstd', undefined, { maxBytes: 1 << 20 }))).toEqual(big);
  });
});
