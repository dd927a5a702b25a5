import { ValidationError } from '@platform/errors';
import { parseRequest } from '@platform/http-server';
import { runQueryRequestSchema, toRunQuery } from './run-query-request.schema';

const TENANT = '11111111-1111-4111-8111-111111111111';
const parse = (body: unknown) => toRunQuery(TENANT, parseRequest(runQueryRequestSchema, body));

describe('runs query request', () => {
  it('reads the body the langsmith SDK sends from listRuns', () => {
    const query = parse({
      session: ['33333333-3333-4333-8333-333333333333'],
      run_type: 'llm',
      reference_example: undefined,
      query: null,
      filter: 'eq(name, "a")',
      trace_filter: null,
      tree_filter: null,
      execution_order: null,
      parent_run: null,
      start_time: '2024-05-01T12:00:00.000Z',
      error: false,
      id: null,
      limit: 5,
      trace: null,
      select: ['id', 'name', 'app_path'],
      is_root: true,
      order: null,
    });
    expect(query).toEqual({
      tenantId: TENANT,
      sessionIds: ['33333333-3333-4333-8333-333333333333'],
      runType: 'llm',
      filter: 'eq(name, "a")',
      startUs: '1714564800000000',
      error: false,
      isRoot: true,
      order: 'desc',
      limit: 5,
      ids: undefined,
      traceId: undefined,
      parentRunId: undefined,
      referenceExampleIds: undefined,
      endUs: undefined,
      search: undefined,
      traceFilter: undefined,
      treeFilter: undefined,
      after: undefined,
    });
  });

  it('defaults to 100 newest runs and accepts one id where a list is expected', () => {
    expect(parse({ session: '33333333-3333-4333-8333-333333333333' })).toMatchObject({
      sessionIds: ['33333333-3333-4333-8333-333333333333'],
      limit: 100,
      order: 'desc',
    });
  });

  it('answers bad fields with FastAPI-shaped 422s', () => {
    expect(() => parse({ session: ['nope'] })).toThrow(ValidationError);
    expect(() => parse({ limit: 0 })).toThrow(ValidationError);
    expect(() => parse({ start_time: 'yesterday' })).toThrow(ValidationError);
    expect(() => parse({ order: 'sideways' })).toThrow(ValidationError);
  });
});
