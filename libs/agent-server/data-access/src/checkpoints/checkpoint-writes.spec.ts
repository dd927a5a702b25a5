import { compareWritesSortKeys } from '@langchain/langgraph-checkpoint';
import { compareWritesKeys, sortWrites, type WritesSortKey } from './checkpoint-writes';

describe('writes order', () => {
  const strings = ['', 'a', 'b', 'ab', 'a~', 'é', '\ue000', '\u{1f600}', '\ud800', '\udfff', 'task', 'task:1', 'task|x'];
  const keys: WritesSortKey[] = strings.flatMap((path) => strings.slice(0, 5).flatMap((id) => [-3, 0, 2, 10].map((idx): WritesSortKey => [path, id, idx])));

  it('written-out comparator (for checkpoint < 1.2) agrees with the library one on every pair', () => {
    for (const a of keys) for (const b of keys) expect([a, b, compareWritesKeys(a, b)]).toEqual([a, b, compareWritesSortKeys(a, b)]);
  });

  it('sorts rows by task path, task id, then idx numerically', () => {
    const rows = [
      { taskPath: 'b', taskId: 't1', idx: 0 },
      { taskPath: '', taskId: 't2', idx: 10 },
      { taskPath: '', taskId: 't2', idx: 2 },
      { taskPath: '\u{1f600}', taskId: 't0', idx: 0 },
      { taskPath: '\ue000', taskId: 't0', idx: 0 },
    ];
    expect(sortWrites(rows).map((r) => `${r.taskPath}|${r.taskId}|${r.idx}`)).toEqual(['|t2|2', '|t2|10', 'b|t1|0', '\ue000|t0|0', '\u{1f600}|t0|0']);
  });
});
