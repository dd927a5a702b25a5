import type { RunBatch } from '@platform/contracts';
import { PageBufferPool } from './page-buffer-pool';
import { NdjsonPageWriter, NdjsonRunPage, releaseRunBatch, type NdjsonRunRow, type RunPage } from './run-pages';

const rows: NdjsonRunRow[] = Array.from({ length: 40 }, (_, i) => ({
  start_time: String(1714521600000000 + Math.floor(i / 3)),
  id: `0b7c5f0e-8a3b-4d5e-9f00-${String(i).padStart(12, '0')}`,
  line: JSON.stringify({ i, text: 'é"\\\n😀'.repeat(i * 7), nothing: null }),
}));

/** Writes `rows` as a binary COPY would hand them over: one source buffer per row, overwritten after each add. */
function written(expectedBytes: number, truncated = false, options: { pool?: PageBufferPool; rows?: NdjsonRunRow[] } = {}): RunPage {
  const writer = new NdjsonPageWriter(expectedBytes, rows.length, options.pool);
  for (const row of options.rows ?? rows) {
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

const linesOf = (batch: RunBatch) => batch.ndjson!.lines as Buffer;
const hexOf = (batch: RunBatch) => linesOf(batch).toString('hex');
// Other runs than `rows`, of the same sizes: a page of them written over a page of `rows` changes every byte.
const otherRows = rows.map((row) => ({ ...row, line: row.line.replace(/"i":/, '"j":') }));

describe('NdjsonPageWriter with a buffer pool', () => {
  it('builds the same page as without one', () => {
    const pool = new PageBufferPool();
    expect(view(written(1 << 20, true, { pool }))).toEqual(view(written(1 << 20, true)));
    // Grown from a small estimate: the buffers it outgrew went back to the pool at once.
    expect(view(written(10, false, { pool }))).toEqual(view(written(10)));
  });

  it('reuses a page buffer only once the page and every batch that views it are released', () => {
    const pool = new PageBufferPool();
    const first = written(1 << 20, false, { pool });
    const [a, b] = [first.batch(0, 20), first.batch(20, 40)];
    const [aBytes, bBytes] = [hexOf(a), hexOf(b)];
    first.release();
    releaseRunBatch(b);
    // Batch `a` still views the buffer: a page written now gets another one and leaves `a`'s bytes alone.
    const second = written(1 << 20, false, { pool, rows: otherRows });
    const secondBatch = second.batch(0, second.count);
    expect(linesOf(secondBatch).buffer).not.toBe(linesOf(a).buffer);
    expect([hexOf(a), hexOf(b)]).toEqual([aBytes, bBytes]);
    // Released twice (the transport may report a batch more than once): counted once.
    releaseRunBatch(b);
    first.release();
    expect(hexOf(a)).toBe(aBytes);
    // Once `a` is released too, the next page is written into the first page's buffer.
    releaseRunBatch(a);
    const third = written(1 << 20, false, { pool, rows: otherRows });
    const thirdBatch = third.batch(0, third.count);
    expect(linesOf(thirdBatch).buffer).toBe(linesOf(a).buffer);
    expect(hexOf(thirdBatch)).toBe(hexOf(secondBatch));
  });

  it('keeps the buffers of a page whose batches are never released out of the pool', () => {
    const pool = new PageBufferPool();
    const page = written(1 << 20, false, { pool });
    const batch = page.batch(0, page.count);
    page.release();
    expect(pool.size).toBe(0);
    const again = written(1 << 20, false, { pool, rows: otherRows });
    expect(linesOf(again.batch(0, again.count)).buffer).not.toBe(linesOf(batch).buffer);
    expect(() => page.batch(0, 1)).toThrow('released');
  });
});
