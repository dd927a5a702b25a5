import { ValidationError } from '@platform/errors';
import { parseRequest } from '@platform/http-server';
import { parseExportStatus } from '@platform/export-data-access';
import { createExportSchema, updateExportSchema } from './create-export.schema';

const base = {
  bulk_export_destination_id: '0b6c2b5e-6a3f-4a55-9a8e-1c2d3e4f5a6b',
  session_id: '1b6c2b5e-6a3f-4a55-9a8e-1c2d3e4f5a6b',
  start_time: '2024-05-01T00:00:00Z',
  end_time: '2024-05-03T00:00:00Z',
};

function issues(fn: () => unknown) {
  try {
    fn();
  } catch (err) {
    if (err instanceof ValidationError) return err.issues.map(({ loc, type, msg }) => ({ loc, type, msg }));
    throw err;
  }
  throw new Error('expected a validation error');
}

describe('export requests', () => {
  it('applies the defaults and reads times without a zone as UTC', () => {
    const parsed = parseRequest(createExportSchema, { ...base, start_time: '2024-05-01T00:00:00', end_time: '2024-05-02T00:00:00.5' });
    expect(parsed).toMatchObject({ format: 'Parquet', format_version: 'v1', compression: 'gzip' });
    expect(parsed.start_time.toISOString()).toBe('2024-05-01T00:00:00.000Z');
    expect(parsed.end_time!.toISOString()).toBe('2024-05-02T00:00:00.500Z');
  });

  it('accepts either case for enumerations', () => {
    expect(parseRequest(createExportSchema, { ...base, format: 'parquet', format_version: 'V2_BETA', compression: 'ZSTANDARD' })).toMatchObject({
      format: 'Parquet',
      format_version: 'v2_beta',
      compression: 'zstandard',
    });
  });

  it('answers FastAPI-shaped issues', () => {
    expect(issues(() => parseRequest(createExportSchema, { ...base, session_id: 'nope', start_time: 'yesterday' }))).toEqual([
      { loc: ['body', 'session_id'], type: 'value_error', msg: 'session_id must be a UUID' },
      { loc: ['body', 'start_time'], type: 'value_error', msg: 'Input should be a valid ISO 8601 datetime' },
    ]);
    expect(issues(() => parseRequest(createExportSchema, { session_id: base.session_id }))).toEqual(
      expect.arrayContaining([
        { loc: ['body', 'bulk_export_destination_id'], type: 'missing', msg: 'Field required' },
        { loc: ['body', 'start_time'], type: 'missing', msg: 'Field required' },
      ]),
    );
    expect(issues(() => parseRequest(createExportSchema, { ...base, export_fields: ['name', 'password'] }))[0]).toMatchObject({
      loc: ['body', 'export_fields', 1],
      type: 'enum',
    });
    expect(issues(() => parseRequest(createExportSchema, { ...base, compression: 'lz4' }))[0]).toMatchObject({ loc: ['body', 'compression'], type: 'enum' });
  });

  it('needs end_time after start_time for a one-off export', () => {
    expect(issues(() => parseRequest(createExportSchema, { ...base, end_time: undefined }))).toEqual([
      { loc: ['body', 'end_time'], type: 'value_error', msg: 'end_time is required unless interval_hours is set' },
    ]);
    expect(issues(() => parseRequest(createExportSchema, { ...base, end_time: base.start_time }))[0].msg).toBe('end_time must be after start_time');
  });

  it('scheduled: interval_hours 1 to 168 and no end_time', () => {
    const { end_time: _omit, ...scheduled } = base;
    expect(parseRequest(createExportSchema, { ...scheduled, interval_hours: 168 }).interval_hours).toBe(168);
    expect(issues(() => parseRequest(createExportSchema, { ...scheduled, interval_hours: 0 }))[0]).toMatchObject({ loc: ['body', 'interval_hours'], type: 'greater_than_equal' });
    expect(issues(() => parseRequest(createExportSchema, { ...scheduled, interval_hours: 169 }))[0]).toMatchObject({ loc: ['body', 'interval_hours'], type: 'less_than_equal' });
    expect(issues(() => parseRequest(createExportSchema, { ...base, interval_hours: 24 }))).toEqual([
      { loc: ['body', 'end_time'], type: 'value_error', msg: 'end_time must be omitted for scheduled exports (interval_hours)' },
    ]);
  });

  it('PATCH accepts Cancelled in any case and nothing else', () => {
    for (const status of ['Cancelled', 'CANCELLED', 'cancelled']) expect(parseRequest(updateExportSchema, { status })).toEqual({ status: 'Cancelled' });
    expect(issues(() => parseRequest(updateExportSchema, { status: 'Running' }))[0]).toMatchObject({ loc: ['body', 'status'] });
  });

  it('parses statuses in either case', () => {
    expect(parseExportStatus('TIMEDOUT')).toBe('TimedOut');
    expect(parseExportStatus('timed_out')).toBe('TimedOut');
    expect(parseExportStatus('Completed')).toBe('Completed');
    expect(parseExportStatus('done')).toBeUndefined();
  });
});
