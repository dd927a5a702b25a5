import type { FilterExpression } from './filter-ast';
import { checkFilter } from './check-filter';
import { parseSyntax } from './filter-parser';

/**
 * Parses and checks a filter such as `and(eq(run_type, "llm"), gt(latency, "5s"))`.
 * Throws {@link FilterSyntaxError} (with the 0-based `position`) for malformed text, unknown calls or fields,
 * wrong arity, operators a field does not allow, and values of the wrong type.
 */
export function parseFilter(text: string): FilterExpression {
  return checkFilter(parseSyntax(text));
}
