import type { Run, RunBatch } from '@platform/contracts';
import type { RunPage } from './run-page.repository';

/** The cursor of a run as the proto carries it. */
export function cursorOfRun(run: Run): { start_time: string; id: string } {
  return { start_time: String(run.start_time), id: String(run.id) };
}

/**
 * Splits a page into batches of at most `maxRuns` runs and about `maxBytes` bytes (a single larger
 * run still goes alone), each carrying the cursor of its last run.
 */
export function* pageBatches(page: RunPage, maxRuns: number, maxBytes: number): Generator<RunBatch> {
  let from = 0;
  while (from < page.runs.length) {
    let to = from + 1;
    let bytes = page.sizes[from];
    while (to < page.runs.length && to - from < maxRuns && bytes + page.sizes[to] <= maxBytes) {
      bytes += page.sizes[to];
      to++;
    }
    const runs = page.runs.slice(from, to);
    yield { runs, cursor: cursorOfRun(runs[runs.length - 1]) };
    from = to;
  }
}
