import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import type { ParquetRow } from '../parquet-column';
import type { Compression } from '../parquet-format';
import type { ParquetWriterFactory } from '../parquet-file-writer';
import { runParquetColumns } from '../run-columns';
import { createDuckDbParquetWriterFactory } from './duckdb-parquet-writer';

// A run as StreamRuns delivers it (int64 as decimal strings, absent optionals, proto-loader's oneof keys).
function run(i: number, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  const id = `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`;
  return {
    id,
    tenant_id: '11111111-1111-4111-8111-111111111111',
    session_id: '22222222-2222-4222-8222-222222222222',
    trace_id: id,
    parent_run_ids: [],
    name: `run-${i}`,
    run_type: 'llm',
    start_time: String(1_714_521_600_123_456n + BigInt(i)),
    end_time: String(1_714_521_601_000_001n + BigInt(i)),
    status: 'success',
    is_root: true,
    dotted_order: `20240501T000000123456Z${id}`,
    inputs: JSON.stringify({ question: `q${i}`, quote: 'say "hi"\nnext line', unicode: 'żółw 🐢' }),
    outputs: JSON.stringify({ answer: i }),
    extra: JSON.stringify({ metadata: { k: 'v' } }),
    events: '[]',
    tags: ['a', `t-${i}`],
    total_tokens: String(9_007_199_254_740_993n + BigInt(i)), // above 2^53: must stay exact
    prompt_tokens: '120',
    completion_tokens: '80',
    total_cost: '0.0002000000',
    prompt_cost: '0.000123',
    completion_cost: '1234567890.0123456789',
    first_token_time: String(1_714_521_600_500_000n + BigInt(i)),
    _parent_run_id: 'parent_run_id',
    ...overrides,
  };
}

async function query(path: string, sql: string): Promise<Record<string, unknown>[]> {
  const db = await DuckDBInstance.create(':memory:');
  const connection = await db.connect();
  try {
    await connection.run(`SET TimeZone = 'UTC'`);
    const reader = await connection.runAndReadAll(sql.replaceAll('$file', `'${path}'`));
    return reader.getRowObjectsJson() as Record<string, unknown>[];
  } finally {
    connection.closeSync();
    db.closeSync();
  }
}

describe('DuckDB Parquet writer', () => {
  let dir: string;
  let factory: ParquetWriterFactory;

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'parquet-writer-spec-'));
    factory = createDuckDbParquetWriterFactory({ tempDir: dir, threads: 2, memoryLimit: '256MB' });
  });

  afterAll(async () => {
    await factory.close();
    rmSync(dir, { recursive: true, force: true });
  });

  async function write(rows: ParquetRow[][], fields: string[] = [], formatVersion: 'v1' | 'v2_beta' = 'v2_beta', compression: Compression = 'zstandard') {
    const writer = await factory.open({ columns: runParquetColumns(fields, formatVersion), compression });
    for (const batch of rows) await writer.append(batch);
    return { writer, file: await writer.finish() };
  }

  it('writes v2_beta with the column types readers need: TIMESTAMPTZ µs, VARCHAR[], BIGINT, BOOLEAN, DECIMAL, JSON as VARCHAR', async () => {
    const { writer, file } = await write([[run(1), run(2)], [run(3, { parent_run_id: 'p', parent_run_ids: ['root', 'p'], end_time: undefined })]]);
    expect(file.rows).toBe(3);
    const described = await query(file.path, 'DESCRIBE SELECT * FROM read_parquet($file)');
    expect(Object.fromEntries(described.map((c) => [c.column_name, c.column_type]))).toEqual({
      id: 'VARCHAR',
      tenant_id: 'VARCHAR',
      session_id: 'VARCHAR',
      trace_id: 'VARCHAR',
      parent_run_id: 'VARCHAR',
      parent_run_ids: 'VARCHAR[]',
      reference_example_id: 'VARCHAR',
      name: 'VARCHAR',
      run_type: 'VARCHAR',
      start_time: 'TIMESTAMP WITH TIME ZONE',
      end_time: 'TIMESTAMP WITH TIME ZONE',
      status: 'VARCHAR',
      is_root: 'BOOLEAN',
      dotted_order: 'VARCHAR',
      trace_tier: 'VARCHAR',
      inputs: 'VARCHAR',
      outputs: 'VARCHAR',
      error: 'VARCHAR',
      extra: 'VARCHAR',
      events: 'VARCHAR',
      tags: 'VARCHAR[]',
      feedback_stats: 'VARCHAR',
      total_tokens: 'BIGINT',
      prompt_tokens: 'BIGINT',
      completion_tokens: 'BIGINT',
      total_cost: 'DECIMAL(20,10)',
      prompt_cost: 'DECIMAL(20,10)',
      completion_cost: 'DECIMAL(20,10)',
      first_token_time: 'TIMESTAMP WITH TIME ZONE',
    });
    const schema = await query(file.path, `SELECT name, type, converted_type, logical_type FROM parquet_schema($file) WHERE name IN ('tags', 'element', 'start_time') ORDER BY name`);
    expect(schema).toEqual([
      { name: 'element', type: 'BYTE_ARRAY', converted_type: 'UTF8', logical_type: null },
      { name: 'element', type: 'BYTE_ARRAY', converted_type: 'UTF8', logical_type: null },
      { name: 'start_time', type: 'INT64', converted_type: 'TIMESTAMP_MICROS', logical_type: expect.stringMatching(/isAdjustedToUTC=1.*MICROS=MicroSeconds\(\)/) },
      { name: 'tags', type: null, converted_type: 'LIST', logical_type: null },
    ]);
    await writer.dispose();
  });

  it('round-trips every value exactly, nulls and order included', async () => {
    const rows = [run(1), run(2, { error: 'boom', tags: [], inputs: undefined, trace_tier: 'longlived', reference_example_id: 'ex' })];
    const { writer, file } = await write([rows]);
    const back = await query(
      file.path,
      `SELECT id, epoch_us(start_time)::VARCHAR AS start_us, epoch_us(end_time)::VARCHAR AS end_us, epoch_us(first_token_time)::VARCHAR AS ftt,
              total_tokens::VARCHAR AS total_tokens, total_cost::VARCHAR AS total_cost, completion_cost::VARCHAR AS completion_cost,
              tags, parent_run_ids, inputs, error, is_root, trace_tier, reference_example_id, parent_run_id
       FROM read_parquet($file)`,
    );
    expect(back).toEqual(
      rows.map((r) => ({
        id: r.id,
        start_us: r.start_time,
        end_us: r.end_time,
        ftt: r.first_token_time,
        total_tokens: r.total_tokens,
        total_cost: '0.0002000000',
        completion_cost: '1234567890.0123456789',
        tags: r.tags,
        parent_run_ids: [],
        inputs: r.inputs ?? null,
        error: r.error ?? null,
        is_root: true,
        trace_tier: r.trace_tier ?? null,
        reference_example_id: r.reference_example_id ?? null,
        parent_run_id: null,
      })),
    );
    await writer.dispose();
  });

  it('writes v1 timestamps as the legacy TIMESTAMP(NANOS, not UTC-adjusted), same instants', async () => {
    const { writer, file } = await write([[run(7)]], ['id', 'start_time'], 'v1');
    const schema = await query(file.path, `SELECT logical_type FROM parquet_schema($file) WHERE name = 'start_time'`);
    expect(schema[0].logical_type).toMatch(/isAdjustedToUTC=0.*NANOS=NanoSeconds\(\)/);
    const back = await query(file.path, `SELECT epoch_ns(start_time)::VARCHAR AS ns FROM read_parquet($file)`);
    expect(back).toEqual([{ ns: `${run(7).start_time}000` }]);
    await writer.dispose();
  });

  it.each([
    ['zstandard', 'ZSTD'],
    ['gzip', 'GZIP'],
    ['snappy', 'SNAPPY'],
    ['none', 'UNCOMPRESSED'],
  ] as const)('compresses %s as %s', async (compression, codec) => {
    const { writer, file } = await write([[run(1), run(2)]], ['id', 'inputs', 'tags'], 'v2_beta', compression);
    const codecs = await query(file.path, 'SELECT DISTINCT compression FROM parquet_metadata($file)');
    expect(codecs).toEqual([{ compression: codec }]);
    await writer.dispose();
  });

  it('writes only the requested columns, in the fixed order', async () => {
    const { writer, file } = await write([[run(1)]], ['total_tokens', 'id', 'tags']);
    const described = await query(file.path, 'DESCRIBE SELECT * FROM read_parquet($file)');
    expect(described.map((c) => c.column_name)).toEqual(['id', 'tags', 'total_tokens']);
    await writer.dispose();
  });

  it('takes a run larger than DuckDB’s default 16 MiB JSON object limit', async () => {
    const big = 'x'.repeat(17 * 1024 * 1024);
    const { writer, file } = await write([[run(1, { outputs: JSON.stringify({ big }) })]], ['id', 'outputs'], 'v2_beta', 'zstandard');
    const back = await query(file.path, 'SELECT length(outputs) AS n FROM read_parquet($file)');
    expect(back).toEqual([{ n: String(big.length + 10) }]);
    await writer.dispose();
  });

  it('takes rows already in NDJSON (any JSON layout, null values), next to stringified ones', async () => {
    // Tracing's lines are compact with explicit nulls; any layout JSON allows must do.
    const spaced = (row: Record<string, unknown>) =>
      `{ ${Object.entries(row)
        .map(([k, v]) => `${JSON.stringify(k)} : ${JSON.stringify(v ?? null)}`)
        .join(' ,\t')} }`;
    const lines = [run(3, { tags: null, parent_run_id: null, inputs: '{"n": 0.10000000000000000001}' }), run(4, { is_root: false, error: 'é\t"x"' })]
      .map((row, i) => (i === 0 ? spaced(row) : JSON.stringify(row)))
      .map((line) => `${line}\n`)
      .join('');
    const writer = await factory.open({ columns: runParquetColumns([], 'v2_beta'), compression: 'zstandard' });
    await writer.append([run(2)]);
    await writer.appendNdjson({ lines: Buffer.from(lines), count: 2, maxLineBytes: 900 });
    await expect(writer.appendNdjson({ lines: Buffer.from('{"id" : "x"}'), count: 1, maxLineBytes: 12 })).rejects.toThrow('newline');
    expect(writer.rows).toBe(3);
    expect(writer.stagedBytes).toBe(Buffer.byteLength(`${JSON.stringify(run(2))}\n${lines}`));
    const file = await writer.finish();
    const back = await query(
      file.path,
      `SELECT id, tags, parent_run_id, inputs, is_root, error, total_tokens::VARCHAR AS total_tokens, epoch_us(start_time)::VARCHAR AS start_us FROM read_parquet($file)`,
    );
    expect(back).toEqual([
      { id: run(2).id, tags: ['a', 't-2'], parent_run_id: null, inputs: run(2).inputs, is_root: true, error: null, total_tokens: run(2).total_tokens, start_us: run(2).start_time },
      { id: run(3).id, tags: null, parent_run_id: null, inputs: '{"n": 0.10000000000000000001}', is_root: true, error: null, total_tokens: run(3).total_tokens, start_us: run(3).start_time },
      { id: run(4).id, tags: ['a', 't-4'], parent_run_id: null, inputs: run(4).inputs, is_root: false, error: 'é\t"x"', total_tokens: run(4).total_tokens, start_us: run(4).start_time },
    ]);
    await writer.dispose();
  });

  it('encodes the next file after one whose COPY failed (connections are reused between files)', async () => {
    const broken = await factory.open({ columns: runParquetColumns(['id'], 'v2_beta'), compression: 'snappy' });
    await broken.appendNdjson({ lines: Buffer.from('{"id": \n'), count: 1, maxLineBytes: 8 });
    await expect(broken.finish()).rejects.toThrow();
    await broken.dispose();
    for (const i of [1, 2]) {
      const { writer, file } = await write([[run(i)]], ['id', 'start_time']);
      const back = await query(file.path, `SELECT id, epoch_us(start_time)::VARCHAR AS start_us FROM read_parquet($file)`);
      expect(back).toEqual([{ id: run(i).id, start_us: run(i).start_time }]);
      await writer.dispose();
    }
  });

  it('counts staged rows and bytes for rolling, and dispose leaves nothing behind', async () => {
    const writer = await factory.open({ columns: runParquetColumns(['id'], 'v2_beta'), compression: 'snappy' });
    await writer.append([run(1), run(2)]);
    expect(writer.rows).toBe(2);
    expect(writer.stagedBytes).toBe(Buffer.byteLength(`${JSON.stringify(run(1))}\n${JSON.stringify(run(2))}\n`));
    const file = await writer.finish();
    expect(existsSync(file.path)).toBe(true);
    await writer.dispose();
    expect(existsSync(dirname(file.path))).toBe(false);
  });

  it('keeps its files under one directory, which close removes', async () => {
    const own = createDuckDbParquetWriterFactory({ tempDir: dir, threads: 1 });
    const writer = await own.open({ columns: runParquetColumns(['id'], 'v2_beta'), compression: 'none' });
    await writer.append([run(1)]);
    const file = await writer.finish();
    const root = dirname(dirname(file.path));
    expect(root).toMatch(/export-parquet-/);
    await own.close();
    expect(existsSync(root)).toBe(false);
    await expect(own.open({ columns: [], compression: 'none' })).rejects.toThrow('closed');
  });
});
