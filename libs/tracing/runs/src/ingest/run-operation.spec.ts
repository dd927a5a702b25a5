import { ValidationError } from '@platform/errors';
import { runOperations } from './run-operation';

const ROOT = '01a1fe2c-fe42-7000-8000-02b1ab0a641d';
const CHILD = '01a1fe2c-fe43-7000-8000-02b1ab0a641e';
const GRANDCHILD = '01a1fe2c-fe44-7000-8000-02b1ab0a641f';
const seg = (id: string, us = '000001') => `20240501T120000${us}Z${id}`;

function issues(fn: () => unknown) {
  try {
    fn();
  } catch (err) {
    if (err instanceof ValidationError) return err.issues;
    throw err;
  }
  throw new Error('no validation error');
}

describe('runOperations', () => {
  it('derives the trace, ancestors and root flag from the dotted order', () => {
    const [op] = runOperations('post', { id: GRANDCHILD, dotted_order: `${seg(ROOT)}.${seg(CHILD)}.${seg(GRANDCHILD)}`, name: 'x' }, ['post', 0]);
    expect(op).toMatchObject({
      id: GRANDCHILD,
      traceId: ROOT,
      parentRunId: CHILD,
      placement: { traceId: ROOT, parentRunIds: [ROOT, CHILD], isRoot: false },
      fields: { name: 'x', start_time: '2024-05-01T12:00:00.000001Z' },
    });
  });

  it('treats a create without parent as a root, and makes its dotted order', () => {
    const [op] = runOperations('post', { id: ROOT, start_time: '2024-05-01T12:00:00.5Z' }, []);
    expect(op.placement).toEqual({ traceId: ROOT, parentRunIds: [], dottedOrder: `20240501T120000500000Z${ROOT}`, isRoot: true });
  });

  it('leaves an update without dotted order unplaced', () => {
    const [op] = runOperations('patch', { end_time: 1714564800000 }, [], ROOT);
    expect(op).toMatchObject({ id: ROOT, placement: undefined, traceId: undefined, fields: { end_time: '2024-05-01T12:00:00.000000Z' } });
  });

  it('takes the first token time from new_token events, and keeps nulls as not sent', () => {
    const events = [{ name: 'new_token', time: '2024-05-01T12:00:03.000003Z' }];
    const [op] = runOperations('patch', { id: ROOT, events, error: null, outputs: null, tags: ['a'] }, []);
    expect(op.firstTokenTime).toBe('2024-05-01T12:00:03.000003Z');
    expect(op.fields).toEqual({ events, tags: ['a'] });
  });

  it('names the field of a validation error, under where the run was', () => {
    expect(issues(() => runOperations('post', { id: 'nope' }, ['post', 3]))).toEqual([
      { loc: ['body', 'post', 3, 'id'], msg: 'Input should be a valid UUID', type: 'uuid_parsing' },
    ]);
    expect(issues(() => runOperations('post', { id: ROOT, start_time: 'soon', run_type: 'robot', inputs: [1] }, ['post.x']))).toEqual([
      expect.objectContaining({ loc: ['body', 'post.x', 'run_type'], type: 'enum' }),
      expect.objectContaining({ loc: ['body', 'post.x', 'start_time'], type: 'datetime_parsing' }),
      expect.objectContaining({ loc: ['body', 'post.x', 'inputs'], type: 'dict_type' }),
    ]);
  });

  it('checks the dotted order against the id, trace and parent', () => {
    const order = `${seg(ROOT)}.${seg(CHILD)}`;
    expect(issues(() => runOperations('post', { id: GRANDCHILD, dotted_order: order }, []))[0]).toMatchObject({ loc: ['body', 'dotted_order'] });
    expect(issues(() => runOperations('post', { id: CHILD, dotted_order: order, trace_id: CHILD }, []))[0]).toMatchObject({ loc: ['body', 'trace_id'] });
    expect(issues(() => runOperations('post', { id: CHILD, dotted_order: order, parent_run_id: GRANDCHILD }, []))[0]).toMatchObject({
      loc: ['body', 'parent_run_id'],
    });
    expect(issues(() => runOperations('post', { id: ROOT, dotted_order: 'garbage' }, []))[0]).toMatchObject({ loc: ['body', 'dotted_order'] });
  });

  it('requires an id for an update and checks it against the one in the request', () => {
    expect(issues(() => runOperations('patch', {}, ['patch', 0]))[0]).toMatchObject({ loc: ['body', 'patch', 0, 'id'], type: 'missing' });
    expect(issues(() => runOperations('patch', { id: CHILD }, [], ROOT))[0]).toMatchObject({ loc: ['body', 'id'] });
    expect(runOperations('post', {}, [])[0].id).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('ingests nested child_runs as creates under their parent', () => {
    const ops = runOperations(
      'post',
      { id: ROOT, start_time: '2024-05-01T12:00:00Z', session_name: 'p', child_runs: [{ id: CHILD, start_time: '2024-05-01T12:00:01Z', name: 'c' }] },
      [],
    );
    expect(ops).toHaveLength(2);
    expect(ops[1]).toMatchObject({
      id: CHILD,
      kind: 'post',
      sessionName: 'p',
      placement: { traceId: ROOT, parentRunIds: [ROOT], dottedOrder: `20240501T120000000000Z${ROOT}.20240501T120001000000Z${CHILD}` },
    });
  });
});
