import { runTree } from './run-tree';

describe('runTree', () => {
  it('orders a trace depth-first by dotted_order, with depths', () => {
    const runs = [
      { id: 'tool', dotted_order: '20250101T000000000001Za.20250101T000000000003Zc', parent_run_id: 'root' },
      { id: 'root', dotted_order: '20250101T000000000001Za', parent_run_id: null },
      { id: 'llm2', dotted_order: '20250101T000000000001Za.20250101T000000000004Zd', parent_run_id: 'root' },
      { id: 'llm1', dotted_order: '20250101T000000000001Za.20250101T000000000002Zb', parent_run_id: 'root' },
      { id: 'inner', dotted_order: '20250101T000000000001Za.20250101T000000000002Zb.20250101T000000000005Ze', parent_run_id: 'llm1' },
    ];
    expect(runTree(runs).map((r) => `${'-'.repeat(r.depth)}${r.run.id}`)).toEqual(['root', '-llm1', '--inner', '-tool', '-llm2']);
  });

  it('falls back to parent links and start times without dotted_order', () => {
    const runs = [
      { id: 'b', parent_run_id: 'root', start_time: '2025-01-01T00:00:02Z' },
      { id: 'a', parent_run_id: 'root', start_time: '2025-01-01T00:00:01Z' },
      { id: 'root', parent_run_id: null, start_time: '2025-01-01T00:00:00Z' },
      { id: 'orphan', parent_run_id: 'missing', start_time: '2025-01-01T00:00:03Z' },
    ];
    expect(runTree(runs).map((r) => [r.run.id, r.depth])).toEqual([
      ['root', 0],
      ['a', 1],
      ['b', 1],
      ['orphan', 0],
    ]);
  });
});
