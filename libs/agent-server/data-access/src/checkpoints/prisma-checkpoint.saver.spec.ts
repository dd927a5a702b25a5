import { emptyCheckpoint, ERROR, uuid6, type Checkpoint, type CheckpointTuple } from '@langchain/langgraph-checkpoint';
import { openAgentServerDatabase, type AgentServerDatabase } from '../agent-server-database';
import { PrismaCheckpointSaver } from './prisma-checkpoint.saver';

const checkpointAt = (channelValues: Record<string, unknown>, versions: Record<string, number>): Checkpoint => ({
  ...emptyCheckpoint(),
  id: uuid6(-1),
  channel_values: channelValues,
  channel_versions: versions,
});
const meta = (step: number) => ({ source: 'loop' as const, step, parents: {} });

async function all(iterable: AsyncIterable<CheckpointTuple>): Promise<CheckpointTuple[]> {
  const out: CheckpointTuple[] = [];
  for await (const item of iterable) out.push(item);
  return out;
}

describe('PrismaCheckpointSaver (in-memory PGlite)', () => {
  let db: AgentServerDatabase;
  let saver: PrismaCheckpointSaver;

  beforeAll(async () => {
    db = await openAgentServerDatabase({ dataDir: 'memory://' });
    await db.migrate();
    saver = new PrismaCheckpointSaver(db.prisma);
  });
  afterAll(() => db.close());

  it('round-trips a checkpoint, keeping unchanged channels from the parent', async () => {
    const first = checkpointAt({ messages: ['hi'], count: 1 }, { messages: 1, count: 1 });
    const firstConfig = await saver.put({ configurable: { thread_id: 't1' } }, first, meta(0), { messages: 1, count: 1 });
    const second = checkpointAt({ messages: ['hi'], count: 2 }, { messages: 1, count: 2 });
    const secondConfig = await saver.put(firstConfig, second, meta(1), { count: 2 });

    const latest = await saver.getTuple({ configurable: { thread_id: 't1' } });
    expect(latest?.config).toEqual(secondConfig);
    expect(latest?.checkpoint).toEqual(second);
    expect(latest?.metadata).toEqual(meta(1));
    expect(latest?.parentConfig).toEqual(firstConfig);
    expect((await saver.getTuple(firstConfig))?.checkpoint.channel_values).toEqual({ messages: ['hi'], count: 1 });
  });

  it('stores metadata holding U+0000 or a lone surrogate, which jsonb cannot: NULs dropped, surrogates marked', async () => {
    const checkpoint = checkpointAt({ text: 'a\u0000b' }, { text: 1 });
    const metadata = { ...meta(0), note: 'x\u0000y \ud800 \\u0000 stays text' } as ReturnType<typeof meta>;
    const config = await saver.put({ configurable: { thread_id: 't-nul' } }, checkpoint, metadata, { text: 1 });
    const stored = await saver.getTuple(config);
    expect(stored?.metadata).toEqual({ ...meta(0), note: 'xy \ufffd \\u0000 stays text' });
    expect(stored?.checkpoint.channel_values).toEqual({ text: 'a\u0000b' });
  });

  it('lists newest first with before, limit and a metadata filter', async () => {
    const ids: string[] = [];
    let config = { configurable: { thread_id: 't2', checkpoint_ns: '' } };
    for (const step of [0, 1, 2]) {
      const checkpoint = checkpointAt({}, {});
      ids.push(checkpoint.id);
      config = (await saver.put(config, checkpoint, { ...meta(step), source: step === 0 ? 'input' : 'loop' }, {})) as typeof config;
    }
    const thread = { configurable: { thread_id: 't2' } };

    expect((await all(saver.list(thread))).map((t) => t.checkpoint.id)).toEqual([...ids].reverse());
    expect((await all(saver.list(thread, { limit: 1 }))).map((t) => t.checkpoint.id)).toEqual([ids[2]]);
    const before = { configurable: { checkpoint_id: ids[2] } };
    expect((await all(saver.list(thread, { before }))).map((t) => t.checkpoint.id)).toEqual([ids[1], ids[0]]);
    expect((await all(saver.list(thread, { filter: { source: 'input' } }))).map((t) => t.checkpoint.id)).toEqual([ids[0]]);
  });

  it('returns pending writes in order; regular writes are kept, special ones replaced', async () => {
    const config = await saver.put({ configurable: { thread_id: 't3' } }, checkpointAt({}, {}), meta(0), {});
    await saver.putWrites(config, [['b', 1], ['a', 2]], 'task-2');
    await saver.putWrites(config, [['c', 3]], 'task-1');
    await saver.putWrites(config, [['b', 'retried']], 'task-2');
    await saver.putWrites(config, [[ERROR, 'first']], 'task-1');
    await saver.putWrites(config, [[ERROR, 'second']], 'task-1');

    const tuple = await saver.getTuple(config);
    expect(tuple?.pendingWrites).toEqual([
      ['task-1', ERROR, 'second'],
      ['task-1', 'c', 3],
      ['task-2', 'b', 1],
      ['task-2', 'a', 2],
    ]);
  });

  it('deletes one thread and nothing else', async () => {
    const keep = await saver.put({ configurable: { thread_id: 'keep' } }, checkpointAt({ x: 1 }, { x: 1 }), meta(0), { x: 1 });
    const drop = await saver.put({ configurable: { thread_id: 'drop' } }, checkpointAt({ x: 1 }, { x: 1 }), meta(0), { x: 1 });
    await saver.putWrites(drop, [['x', 2]], 'task');

    await saver.deleteThread('drop');

    expect(await saver.getTuple({ configurable: { thread_id: 'drop' } })).toBeUndefined();
    expect(await db.prisma.checkpointWrite.count({ where: { threadId: 'drop' } })).toBe(0);
    expect(await db.prisma.checkpointBlob.count({ where: { threadId: 'drop' } })).toBe(0);
    expect((await saver.getTuple(keep))?.checkpoint.channel_values).toEqual({ x: 1 });
  });

  it('rejects writes without a thread or a checkpoint id', async () => {
    await expect(saver.put({ configurable: {} }, checkpointAt({}, {}), meta(0), {})).rejects.toThrow(/thread_id/);
    await expect(saver.putWrites({ configurable: { thread_id: 't4' } }, [['a', 1]], 'task')).rejects.toThrow(/checkpoint_id/);
  });
});
