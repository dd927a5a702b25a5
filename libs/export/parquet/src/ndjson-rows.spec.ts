import { lastNdjsonRow, splitNdjsonRows, toNdjsonRows } from './ndjson-rows';

const rows = toNdjsonRows([{ id: 'a' }, { id: 'bb' }, { id: 'ccc' }]);
// Lines: {"id":"a"}\n (11 bytes), {"id":"bb"}\n (12), {"id":"ccc"}\n (13).
const ids = (part: ReturnType<typeof splitNdjsonRows>['head'] | undefined) => part?.lines.toString().trim().split('\n').filter(Boolean).map((l) => JSON.parse(l).id);

describe('splitNdjsonRows', () => {
  it('keeps rows that fit whole', () => {
    expect(splitNdjsonRows(rows, 3, 36, false)).toEqual({ head: rows });
  });

  it('splits at the row count and at the byte bound, newlines counted, without cutting a row', () => {
    const byCount = splitNdjsonRows(rows, 2, 1_000, false);
    expect([ids(byCount.head), byCount.head.count, ids(byCount.tail), byCount.tail?.count]).toEqual([['a', 'bb'], 2, ['ccc'], 1]);
    const byBytes = splitNdjsonRows(rows, 10, 23, false);
    expect([ids(byBytes.head), ids(byBytes.tail)]).toEqual([['a', 'bb'], ['ccc']]);
    expect(splitNdjsonRows(rows, 10, 22, false).head.count).toBe(1);
    expect(byBytes.head.maxLineBytes).toBe(rows.maxLineBytes);
  });

  it('takes nothing when the first row does not fit, unless one row must be taken', () => {
    expect(splitNdjsonRows(rows, 10, 5, false)).toMatchObject({ head: { count: 0 }, tail: { count: 3 } });
    const forced = splitNdjsonRows(rows, 10, 5, true);
    expect([ids(forced.head), ids(forced.tail)]).toEqual([['a'], ['bb', 'ccc']]);
  });

  it('reads the last row back', () => {
    expect(lastNdjsonRow(rows)).toEqual({ id: 'ccc' });
    expect(lastNdjsonRow(splitNdjsonRows(rows, 1, 100, false).head)).toEqual({ id: 'a' });
  });
});
