import { RUN_COLUMN_NAMES, runParquetColumns } from './run-columns';
import { parquetCodec } from './parquet-format';

describe('runParquetColumns', () => {
  it('gives every run column in order when no fields are requested', () => {
    const columns = runParquetColumns([], 'v2_beta');
    expect(columns.map((c) => c.name)).toEqual(RUN_COLUMN_NAMES);
    expect(columns).toHaveLength(29);
  });

  it('keeps the fixed column order and drops duplicates whatever order fields are requested in', () => {
    expect(runParquetColumns(['tags', 'id', 'start_time', 'id'], 'v2_beta')).toEqual([
      { name: 'id', type: 'utf8' },
      { name: 'start_time', type: 'timestamp_micros_utc' },
      { name: 'tags', type: 'utf8_list' },
    ]);
  });

  it('types v2_beta timestamps as UTC microseconds and v1 ones as the legacy local nanoseconds', () => {
    const timestamps = ['start_time', 'end_time', 'first_token_time'];
    expect(runParquetColumns(timestamps, 'v2_beta').map((c) => c.type)).toEqual(Array(3).fill('timestamp_micros_utc'));
    expect(runParquetColumns(timestamps, 'v1').map((c) => c.type)).toEqual(Array(3).fill('timestamp_nanos_local'));
  });

  it('types lists, JSON, tokens, costs and flags', () => {
    const byName = Object.fromEntries(runParquetColumns([], 'v1').map((c) => [c.name, c.type]));
    expect(byName).toMatchObject({
      parent_run_ids: 'utf8_list',
      tags: 'utf8_list',
      inputs: 'json',
      outputs: 'json',
      extra: 'json',
      events: 'json',
      feedback_stats: 'json',
      error: 'utf8',
      total_tokens: 'int64',
      prompt_tokens: 'int64',
      completion_tokens: 'int64',
      total_cost: 'decimal',
      is_root: 'boolean',
    });
  });

  it('rejects a name that is not a run column', () => {
    expect(() => runParquetColumns(['id', 'serialized', 'nope'], 'v2_beta')).toThrow('Not exportable run fields: serialized, nope');
  });
});

describe('parquetCodec', () => {
  it('maps the export compression values to Parquet codecs', () => {
    expect(['zstandard', 'gzip', 'snappy', 'none'].map((c) => parquetCodec(c as never))).toEqual(['ZSTD', 'GZIP', 'SNAPPY', 'UNCOMPRESSED']);
  });
});
