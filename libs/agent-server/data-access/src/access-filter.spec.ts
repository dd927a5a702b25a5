import { InternalError } from '@platform/errors';
import { openDatabase, type Database } from '@platform/prisma';
import { bothFilters, matchesAccessFilter, parseAccessFilter } from './access-filter';
import { accessFilterSql, binderOf } from './access-filter.sql';

const doc = { owner: 'alice', team: 7, active: true, tags: ['a', 'b', 'c'], nested: { x: 1 }, nothing: null, list: [{ id: 1 }] };

// [filter, does `doc` pass it]
const CASES: [Record<string, unknown>, boolean][] = [
  [{}, true],
  [{ owner: 'alice' }, true],
  [{ owner: 'bob' }, false],
  [{ owner: { $eq: 'alice' } }, true],
  [{ owner: { $eq: 'bob' } }, false],
  [{ team: 7, active: true }, true],
  [{ team: '7' }, false],
  [{ owner: 'alice', team: 8 }, false],
  [{ missing: 'x' }, false],
  [{ nothing: null }, true],
  [{ missing: null }, false],
  [{ nested: { $eq: { x: 1 } } }, true],
  [{ tags: { $contains: 'b' } }, true],
  [{ tags: { $contains: ['a', 'c'] } }, true],
  [{ tags: { $contains: ['a', 'z'] } }, false],
  [{ tags: { $contains: 'z' } }, false],
  [{ owner: { $contains: 'alice' } }, false],
  [{ missing: { $contains: 'a' } }, false],
  [{ tags: ['a', 'b', 'c'] }, true],
  [{ list: { $contains: { id: 1 } } }, true],
];

describe('access filters', () => {
  it('parses plain values, $eq and $contains into conditions', () => {
    expect(parseAccessFilter({ owner: 'alice', team: { $eq: 7 }, tags: { $contains: 'x' }, both: { $contains: ['a', 'b'] } })).toEqual([
      { key: 'owner', op: 'eq', value: 'alice' },
      { key: 'team', op: 'eq', value: 7 },
      { key: 'tags', op: 'contains', value: ['x'] },
      { key: 'both', op: 'contains', value: ['a', 'b'] },
    ]);
    expect(parseAccessFilter({})).toEqual([]);
  });

  it('refuses a filter it cannot apply rather than letting everything through', () => {
    expect(() => parseAccessFilter({ owner: { $ne: 'bob' } })).toThrow(InternalError);
    expect(() => parseAccessFilter({ owner: { $ne: 'bob' } })).toThrow("Auth handler returned an invalid filter for 'owner': unsupported operator $ne");
    expect(() => parseAccessFilter({ owner: {} })).toThrow('an object needs $eq or $contains');
  });

  it.each(CASES)('matches %j in memory: %s', (filter, expected) => {
    expect(matchesAccessFilter(doc, parseAccessFilter(filter))).toBe(expected);
  });

  it('lets everything through without a filter, and nothing missing through a filter', () => {
    expect(matchesAccessFilter(undefined, undefined)).toBe(true);
    expect(matchesAccessFilter(undefined, parseAccessFilter({ owner: 'alice' }))).toBe(false);
  });

  it('combines the filters of two events', () => {
    const a = parseAccessFilter({ owner: 'alice' });
    const b = parseAccessFilter({ team: 7 });
    expect(bothFilters(undefined, b)).toBe(b);
    expect(bothFilters(a, undefined)).toBe(a);
    expect(bothFilters(a, b)).toEqual([...a, ...b]);
  });

  it('builds no SQL for no filter, and binds keys and values', () => {
    const params: unknown[] = ['first'];
    expect(accessFilterSql(undefined, 't.metadata', binderOf(params))).toBeUndefined();
    expect(accessFilterSql([], 't.metadata', binderOf(params))).toBeUndefined();
    const sql = accessFilterSql(parseAccessFilter({ owner: 'alice', tags: { $contains: 'x' } }), 't.metadata', binderOf(params));
    expect(sql).toBe(
      "COALESCE(((t.metadata -> $2::text) = $3::jsonb AND (jsonb_typeof((t.metadata -> $4::text)) = 'array' AND (t.metadata -> $4::text) @> $5::jsonb)), false)",
    );
    expect(params).toEqual(['first', 'owner', '"alice"', 'tags', '["x"]']);
  });

  describe('in the database (Postgres when DATABASE_URL is set, else PGlite)', () => {
    let db: Database;

    beforeAll(async () => {
      db = await openDatabase({ url: process.env['DATABASE_URL']?.trim() || undefined, dataDir: 'memory://' });
    });
    afterAll(() => db?.close());

    it.each(CASES)('matches %j in SQL as in memory: %s', async (filter, expected) => {
      const params: unknown[] = [JSON.stringify(doc)];
      const condition = accessFilterSql(parseAccessFilter(filter), 'd.doc', binderOf(params)) ?? 'TRUE';
      const [row] = await db.query<{ passes: boolean }>(`SELECT ${condition} AS passes FROM (SELECT $1::jsonb AS doc) d`, params);
      expect(row.passes).toBe(expected);
    });
  });
});
