import type { RunBatch } from '@platform/contracts';
import { NotFoundError } from '@platform/errors';
import { compileFilter } from '@platform/tracing-filter';
import { pageBatches } from './run-batches';
import { RUN_PAGE_FILTER_FIRST_PARAM, type CompiledRunFilter } from './run-page.sql';
import type { RunPageReader } from './run-page.repository';
import { releaseRunBatch, type RunPage } from './run-pages';
import { selectedRunFields } from './run-stream-columns';
import { DEFAULT_MAX_RUN_BATCH_BYTES, type RunStreamCursor, type RunStreamQuery } from './run-stream.types';

/** What the stream needs: keyset pages of runs, and whether a project exists. */
export interface StreamRunsDeps {
  runs: RunPageReader;
  projects: { find(tenantId: string, id: string): Promise<object | null> };
}

// Bounds the bytes held per page (and per prefetched page) when runs are large: each page stops at about this
// many batches' worth of stored bytes, and later pages ask for about as many rows as fit, from the average run
// size seen.
const PAGE_BYTES_PER_BATCH_BYTES = 4;

function compileRunFilter(text: string | undefined): CompiledRunFilter | undefined {
  if (!text?.trim()) return undefined;
  return compileFilter(text, { alias: 'r', firstParam: RUN_PAGE_FILTER_FIRST_PARAM });
}

/**
 * Streams a project's runs in `[startUs, endUs)` in (start_time, id) order as batches in the query's
 * encoding, each with the cursor of its last run, reading keyset pages and prefetching the next page while
 * the current one is sent. Throws InputError for a bad filter, NotFoundError for an unknown project.
 * A batch may view a pooled buffer: the consumer calls `releaseRunBatch` once it no longer reads the batch's bytes
 * (a batch never released is left to the GC, its buffer not reused).
 *
 * Each page is its own snapshot and resumes strictly after the previous page's last row, so under
 * concurrent ingestion no row is returned twice and rows that arrive ahead of the read position are
 * seen. Caveat: a row that arrives (or gets its create) behind the read position, which runs up to a
 * prefetched page plus the transport's buffers ahead of the client, is not seen by this stream, and a
 * row changed after it was read is not sent again. Exporters read past windows, where both are moot.
 */
export async function* streamRunBatches(
  deps: StreamRunsDeps,
  query: RunStreamQuery,
  signal?: AbortSignal,
): AsyncGenerator<RunBatch, void, undefined> {
  const filter = compileRunFilter(query.filter);
  if (!(await deps.projects.find(query.tenantId, query.sessionId))) {
    throw new NotFoundError(`Tracing project ${query.sessionId} not found`);
  }
  const fields = selectedRunFields(query.fields);
  const maxBytes = query.maxBatchBytes ?? DEFAULT_MAX_RUN_BATCH_BYTES;
  const read = (after: RunStreamCursor | undefined, limit: number): Promise<RunPage> => {
    const page = deps.runs.readPage({ ...query, fields, filter, after, limit, maxStoredBytes: maxBytes * PAGE_BYTES_PER_BATCH_BYTES, encoding: query.encoding });
    page.catch(() => undefined); // awaited below; this only keeps an abandoned prefetch from being "unhandled"
    return page;
  };

  let limit = query.batchSize;
  let pending: Promise<RunPage> | undefined = read(query.after, limit);
  let page: RunPage | undefined;
  try {
    while (pending && !signal?.aborted) {
      page = await pending;
      pending = undefined;
      const full = page.count === limit || page.truncated;
      if (full) {
        const last = page.cursorAt(page.count - 1);
        const average = page.sizes.reduce((sum, size) => sum + size, 0) / page.count;
        limit = Math.max(1, Math.min(query.batchSize, Math.floor((maxBytes * PAGE_BYTES_PER_BATCH_BYTES) / average)));
        pending = read({ startTimeUs: BigInt(last.start_time), id: last.id }, limit);
      }
      for (const batch of pageBatches(page, query.batchSize, maxBytes)) {
        if (signal?.aborted) {
          releaseRunBatch(batch); // made, never yielded
          return;
        }
        yield batch;
      }
      page.release();
      page = undefined;
    }
  } finally {
    // The reader's holds on its pages' buffers; the batches it yielded hold theirs until released (releaseRunBatch).
    page?.release();
    pending?.then((next) => next.release(), () => undefined);
  }
}
