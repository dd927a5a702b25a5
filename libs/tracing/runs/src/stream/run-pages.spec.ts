import { NdjsonPageWriter, NdjsonRunPage, type NdjsonRunRow, type RunPage } from './run-pages';

const rows: NdjsonRunRow[] = Array.from({ length: 40 }, (_, i) => ({
  start_time: String(1714521600000000 + Math.floor(i / 3)),
  id: `0b7c5f0e-8a3b-4d5e-9f00-${String(i).padStart(12, '0')}`,
  line: JSON.stringify({ i, text: 'é"\\\n😀'.repeat(i * 7), nothing: null }),
}));

/** Writes `rows` as a binary COPY would hand them over: one source buffer per row, overwritten after each add. */
function written(expectedBytes: number, truncated = false): RunPage {
  const writer = new NdjsonPageWriter(expectedBytes, rows.length);
  for (const row of rows) {
    const parts = [Buffer.from('junk'), Buffer.from(row.start_time), Buffer.from('1234'), Buffer.from(row.id), Buffer.from('~'), Buffer.from(row.line)];
    const source = Buffer.concat(parts);
    const at = (k: number) => parts.slice(0, k).reduce((n, p) => n + p.length, 0);
    writer.add(source, at(1), at(2), at(3), at(4), at(5), at(6));
    source.fill(0);
  }
  return writer.finish(truncated);
}

function view(page: RunPage) {
  return {
    count: page.count,
    truncated: page.truncated,
    sizes: [...page.sizes],
    cursors: Array.from({ length: page.count }, (_, i) => page.cursorAt(i)),
    batches: [page.batch(0, page.count), page.batch(5, 6), page.batch(10, 31)].map((b) => ({ ...b, ndjson: { ...b.ndjson, lines: Buffer.from(b.ndjson!.lines as Buffer).toString('hex') } })),
  };
}

describe('NdjsonPageWriter', () => {
  it('builds the page fromRows builds from the same runs: bytes, sizes, cursors, batches', () => {
    const expected = view(NdjsonRunPage.fromRows(rows, true));
    expect(view(written(1 << 20, true))).toEqual(expected);
    // From a far too small estimate, the buffer grows; from a far too large one, the page is trimmed to its lines.
    expect(view(written(10, true))).toEqual(expected);
    const roomy = written(64 << 20, true);
    expect(view(roomy)).toEqual(expected);
    const lines = roomy.batch(0, roomy.count).ndjson!.lines as Buffer;
    expect(lines.buffer.byteLength).toBeLessThan(1 << 20);
  });

  it('writes an empty page', () => {
    const page = new NdjsonPageWriter(1000).finish(false);
    expect(page.count).toBe(0);
    expect(page.sizes).toEqual([]);
  });
});
