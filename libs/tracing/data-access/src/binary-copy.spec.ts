import { BinaryCopyParser, type CopyTuple } from './binary-copy';

const SIGNATURE = Buffer.from('PGCOPY\n\xff\r\n\0', 'latin1');

function int16(n: number): Buffer {
  const b = Buffer.alloc(2);
  b.writeInt16BE(n);
  return b;
}
function int32(n: number): Buffer {
  const b = Buffer.alloc(4);
  b.writeInt32BE(n);
  return b;
}

/** A binary COPY stream of `rows` (text fields; null for NULL) with an optional header extension. */
function copyStream(rows: (string | null)[][], extension = Buffer.alloc(0)): Buffer {
  const parts = [SIGNATURE, int32(0), int32(extension.length), extension];
  for (const row of rows) {
    parts.push(int16(row.length));
    for (const field of row) {
      if (field === null) parts.push(int32(-1));
      else {
        const bytes = Buffer.from(field, 'utf8');
        parts.push(int32(bytes.length), bytes);
      }
    }
  }
  parts.push(int16(-1));
  return Buffer.concat(parts);
}

function parse(chunks: Buffer[]): (string | null)[][] {
  const rows: (string | null)[][] = [];
  const parser = new BinaryCopyParser((t: CopyTuple) => {
    const row: (string | null)[] = [];
    for (let i = 0; i < t.count; i++) row.push(t.starts[i] < 0 ? null : t.data.toString('utf8', t.starts[i], t.ends[i]));
    rows.push(row);
  });
  // Each chunk is copied into a scratch buffer that is overwritten afterwards, as pg's read buffer may be.
  for (const chunk of chunks) {
    const scratch = Buffer.from(chunk);
    parser.push(scratch);
    scratch.fill(0xee);
  }
  parser.end();
  expect(parser.count).toBe(rows.length);
  return rows;
}

const ROWS: (string | null)[][] = [
  ['1714521600000000', '0b7c5f0e-8a3b-4d5e-9f00-000000000001', '{"q":"é \\"x\\" \\\\ \\n 😀"}'],
  ['1714521600000001', null, ''],
  [],
  ['x'.repeat(70_000), 'y', null, 'z'],
];

describe('BinaryCopyParser', () => {
  it('reads tuples, nulls, empty fields and tuples of any width from one chunk', () => {
    expect(parse([copyStream(ROWS)])).toEqual(ROWS);
  });

  it('reads the same tuples whatever the chunks cut, copying only what spans two chunks', () => {
    const stream = copyStream(ROWS.slice(0, 3));
    for (let cut = 0; cut <= stream.length; cut++) {
      expect(parse([stream.subarray(0, cut), stream.subarray(cut)])).toEqual(ROWS.slice(0, 3));
    }
    const bytes = [...stream].map((b) => Buffer.from([b]));
    expect(parse(bytes)).toEqual(ROWS.slice(0, 3));
  });

  it('skips a header extension and reads an empty COPY', () => {
    expect(parse([copyStream(ROWS, Buffer.from('ext!'))])).toEqual(ROWS);
    expect(parse([copyStream([])])).toEqual([]);
  });

  it('refuses what is not binary COPY data: bad signature, OIDs, bad lengths, a missing trailer, data after it', () => {
    const parser = () => new BinaryCopyParser(() => undefined);
    expect(() => parser().push(Buffer.concat([Buffer.from('PGCOPY\n\xff\r\n\x01', 'latin1'), int32(0), int32(0)]))).toThrow('bad signature');
    expect(() => parser().push(Buffer.concat([SIGNATURE, int32(1 << 16), int32(0)]))).toThrow('OIDs');
    expect(() => parser().push(Buffer.concat([SIGNATURE, int32(0), int32(0), int16(1), int32(-2)]))).toThrow('bad field length');
    expect(() => parser().push(Buffer.concat([SIGNATURE, int32(0), int32(0), int16(-3)]))).toThrow('bad field count');
    const cut = parser();
    cut.push(copyStream(ROWS).subarray(0, 40));
    expect(() => cut.end()).toThrow('before its trailer');
    const after = parser();
    expect(() => after.push(Buffer.concat([copyStream([]), Buffer.from([0])]))).toThrow('after the trailer');
  });

  it('hands the sink a view, and a sink that throws stops the parse with its error', () => {
    const parser = new BinaryCopyParser(() => {
      throw new Error('sink failed');
    });
    expect(() => parser.push(copyStream(ROWS))).toThrow('sink failed');
  });
});
