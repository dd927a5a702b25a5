import type { Run } from '@platform/contracts';
import type { RunPageRequest } from './run-page.sql';
import type { RunPageReader } from './run-page.repository';
import { MessageRunPage, type RunPage } from './run-pages';
import { streamRunBatches } from './stream-runs.usecase';

// A reader over `total` synthetic runs of `rowBytes` each, recording the pages asked for.
function fakeReader(total: number, rowBytes: number): RunPageReader & { asked: RunPageRequest[] } {
  const runs: Run[] = Array.from({ length: total }, (_, i) => ({ id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`, start_time: String(1000 + i) }));
  const asked: RunPageRequest[] = [];
  return {
    asked,
    async readPage(page): Promise<RunPage> {
      asked.push(page);
      const from = page.after ? runs.findIndex((r) => r.id === page.after!.id) + 1 : 0;
      const slice = runs.slice(from, from + page.limit);
      return new MessageRunPage(slice, slice.map(() => rowBytes));
    },
  };
}

const projects = { find: async () => ({}) };
const query = { tenantId: 't', sessionId: 's', startUs: 0n, endUs: 10n ** 9n, fields: [] };

async function drain(reader: RunPageReader, batchSize: number, maxBatchBytes?: number) {
  const batches = [];
  for await (const batch of streamRunBatches({ runs: reader, projects }, { ...query, batchSize, maxBatchBytes })) batches.push(batch);
  return batches;
}

describe('streamRunBatches paging', () => {
  it('asks for each next page after the last run of the previous one, and stops at a short page', async () => {
    const reader = fakeReader(25, 10);
    const batches = await drain(reader, 10);
    expect(batches.map((b) => b.runs!.length)).toEqual([10, 10, 5]);
    expect(reader.asked.map((p) => [p.after?.id.slice(-2), p.limit])).toEqual([
      [undefined, 10],
      ['09', 10],
      ['19', 10],
    ]);
    expect(reader.asked[1].after!.startTimeUs).toBe(1009n);
  });

  it('shrinks pages when runs are large, so a page holds about four batches of bytes', async () => {
    const reader = fakeReader(100, 1000);
    const batches = await drain(reader, 50, 5000);
    expect(batches.flatMap((b) => b.runs)).toHaveLength(100);
    expect(batches.every((b) => b.runs!.length <= 5)).toBe(true);
    expect(reader.asked.slice(1).every((p) => p.limit === 20)).toBe(true);
  });
});
