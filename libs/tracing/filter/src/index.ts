export type { FilterComparator, FilterCondition, FilterExpression, FilterField, FilterScalar } from './filter-ast';
export { FilterSyntaxError } from './filter-syntax.error';
export { parseFilter } from './parse-filter';
export { compileFilter, hasFeedbackCondition, type CompiledFilter, type CompileFilterOptions } from './compile-filter';
export { FILTER_FIELDS } from './filter-fields';
