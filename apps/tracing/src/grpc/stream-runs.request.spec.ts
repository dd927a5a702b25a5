import type { StreamRunsRequest__Output } from '@platform/contracts';
import { InputError } from '@platform/errors';
import { parseStreamRunsRequest } from './stream-runs.request';

const valid: StreamRunsRequest__Output = {
  tenant_id: '9F1C2E4A-0000-4000-8000-000000000001',
  session_id: '9f1c2e4a-0000-4000-8000-000000000002',
  start_time: '1714521600000000',
  end_time: '1714608000000000',
  filter: '',
  fields: [],
  cursor: null,
  batch_size: 0,
  encoding: 'RUN_ENCODING_MESSAGES',
};

const parse = (patch: Partial<StreamRunsRequest__Output>) => parseStreamRunsRequest({ ...valid, ...patch });

describe('parseStreamRunsRequest', () => {
  it('turns a valid request into the stream query, with defaults', () => {
    expect(parse({})).toEqual({
      tenantId: '9f1c2e4a-0000-4000-8000-000000000001',
      sessionId: valid.session_id,
      startUs: 1_714_521_600_000_000n,
      endUs: 1_714_608_000_000_000n,
      filter: undefined,
      fields: [],
      after: undefined,
      batchSize: 1000,
      encoding: 'messages',
    });
  });

  it('maps the encoding: messages by default (also when the field is absent), or NDJSON', () => {
    expect(parse({ encoding: 'RUN_ENCODING_NDJSON' }).encoding).toBe('ndjson');
    expect(parseStreamRunsRequest({ ...valid, encoding: undefined as unknown as 'RUN_ENCODING_MESSAGES' }).encoding).toBe('messages');
  });

  it('keeps fields, filter and cursor, and caps the batch size at 10,000', () => {
    const query = parse({
      fields: ['inputs', 'name', 'inputs'],
      filter: 'eq(run_type, "llm")',
      cursor: { start_time: '1714521600000001', id: valid.session_id },
      batch_size: 50_000,
    });
    expect(query).toMatchObject({
      fields: ['inputs', 'name'],
      filter: 'eq(run_type, "llm")',
      after: { startTimeUs: 1_714_521_600_000_001n, id: valid.session_id },
      batchSize: 10_000,
    });
  });

  it.each([
    [{ tenant_id: '' }, 'tenant_id must be a UUID'],
    [{ session_id: 'abc' }, 'session_id must be a UUID'],
    [{ start_time: '1714608000000000' }, 'start_time must be before end_time'],
    [{ end_time: '1714521599999999' }, 'start_time must be before end_time'],
    [{ end_time: '999999999999999999' }, 'end_time is out of range'],
    [{ fields: ['name', 'serialized'] }, 'fields: unknown or non-exportable field "serialized"'],
    [{ fields: ['nope'] }, '"nope"'],
    [{ cursor: { start_time: '1', id: 'x' } }, 'cursor.id must be a UUID'],
    [{ batch_size: -1 }, 'batch_size must not be negative'],
    [{ encoding: 7 }, 'encoding: unknown value 7'],
  ])('rejects %j', (patch, message) => {
    expect(() => parse(patch as Partial<StreamRunsRequest__Output>)).toThrow(InputError);
    expect(() => parse(patch as Partial<StreamRunsRequest__Output>)).toThrow(message);
  });
});
