import { compileFilter, FilterSyntaxError, type CompiledFilter } from '@platform/tracing-filter';

/** Which body field a filter came from, for error messages. */
export type RunQueryFilterName = 'filter' | 'trace_filter' | 'tree_filter';

/**
 * Compiles one of the query's filters, naming the field in errors (`Invalid trace_filter: Unexpected ")" at
 * position 17: expected a value`); the position stays the offset in that field's text.
 */
export function compileRunQueryFilter(
  name: RunQueryFilterName,
  text: string,
  alias: string,
  firstParam: number,
  feedbackModified?: { from?: string; to?: string },
): CompiledFilter {
  try {
    return compileFilter(text, { alias, firstParam, feedbackModified });
  } catch (err) {
    if (err instanceof FilterSyntaxError) throw new FilterSyntaxError(`Invalid ${name}: ${err.message}`, err.position);
    throw err;
  }
}

/** Checks the filters of a query body without running it (`POST /runs/query/validate`). */
export function validateRunQueryFilters(filters: Partial<Record<RunQueryFilterName, string | null>>): void {
  for (const name of ['filter', 'trace_filter', 'tree_filter'] as const) {
    const text = filters[name];
    if (text?.trim()) compileRunQueryFilter(name, text, 'r', 1);
  }
}
