import { isoToMicros, microsToIso } from '@platform/contracts';
import { NotImplementedError, ValidationError, type RequestPart } from '@platform/errors';
import { hasFeedbackCondition } from '@platform/tracing-filter';
import { decodeRunQueryCursor } from '../query/run-query-cursor';
import { validateRunQueryFilters } from '../query/run-query-filters';
import type { RunQuery } from '../query/run-query.types';
import { DEFAULT_V2_PAGE_SIZE } from './run-v2-requests.schema';

const DAY_US = 86_400_000_000n;

/** What every v2 query body may carry besides its own fields. */
interface V2QueryBody {
  min_start_time?: string | null;
  max_start_time?: string | null;
  min_feedback_modified_at?: string | null;
  max_feedback_modified_at?: string | null;
  ai_search?: string | null;
  cursor?: string | null;
  page_size?: number | null;
}

const micros = (iso: string) => isoToMicros(iso);

/**
 * The start-time window of a query, epoch microseconds: `min_start_time` to `max_start_time` (default now); without
 * `min_start_time`, the day before the window's end. A window that ends before it starts is a 422.
 */
export function startWindow(
  body: Pick<V2QueryBody, 'min_start_time' | 'max_start_time'>,
  nowMs: number,
  part: RequestPart = 'body',
): { startUs: string; endUs: string } {
  const endUs = body.max_start_time ? micros(body.max_start_time) : String(BigInt(nowMs) * 1000n);
  const startUs = body.min_start_time ? micros(body.min_start_time) : String(BigInt(endUs) - DAY_US);
  if (BigInt(startUs) > BigInt(endUs)) throw ValidationError.at([part, 'min_start_time'], 'min_start_time must not be after max_start_time');
  return { startUs, endUs };
}

/**
 * Checks what all v2 queries share and turns it into {@link RunQuery} fields: the filters (a bad one is a 400 naming
 * it), the feedback window (which needs a feedback condition in some filter), the page and its cursor. `ai_search`
 * needs semantic search over trajectories, which this deployment does not have: 501, as LangSmith answers where
 * it is unavailable.
 */
export function commonV2Query(
  body: V2QueryBody,
  filters: { filter?: string | null; trace_filter?: string | null; tree_filter?: string | null },
): Pick<RunQuery, 'feedbackModified' | 'limit' | 'after'> {
  if (body.ai_search?.trim()) throw new NotImplementedError('ai_search is not available on this deployment (no semantic search over runs)');
  validateRunQueryFilters(filters);
  let feedbackModified: RunQuery['feedbackModified'];
  if (body.min_feedback_modified_at || body.max_feedback_modified_at) {
    const named = [filters.filter, filters.trace_filter, filters.tree_filter].some((text) => !!text?.trim() && hasFeedbackCondition(text));
    if (!named) {
      const field = body.min_feedback_modified_at ? 'min_feedback_modified_at' : 'max_feedback_modified_at';
      throw ValidationError.at(['body', field], `${field} needs a feedback condition (feedback_key, feedback_score) in a filter`);
    }
    const iso = (value: string | null | undefined) => (value ? microsToIso(micros(value)) : undefined);
    feedbackModified = { from: iso(body.min_feedback_modified_at), to: iso(body.max_feedback_modified_at) };
  }
  return {
    feedbackModified,
    limit: body.page_size ?? DEFAULT_V2_PAGE_SIZE,
    after: body.cursor ? decodeRunQueryCursor(body.cursor) : undefined,
  };
}
