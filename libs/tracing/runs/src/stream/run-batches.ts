import type { RunBatch } from '@platform/contracts';
import type { RunPage } from './run-pages';

/**
 * Splits a page into batches of at most `maxRuns` runs and about `maxBytes` bytes (a single larger
 * run still goes alone), each carrying the cursor of its last run.
 */
export function* pageBatches(page: RunPage, maxRuns: number, maxBytes: number): Generator<RunBatch> {
  let from = 0;
  while (from < page.count) {
    let to = from + 1;
    let bytes = page.sizes[from];
    while (to < page.count && to - from < maxRuns && bytes + page.sizes[to] <= maxBytes) {
      bytes += page.sizes[to];
      to++;
    }
    yield page.batch(from, to);
    from = to;
  }
}
