import type { FilterComparator, FilterCondition, FilterExpression, FilterField, FilterScalar } from './filter-ast';
import { FIELD_SPECS, isFilterField, type FieldValueKind } from './filter-fields';
import type { SyntaxNode } from './filter-parser';
import { FilterSyntaxError } from './filter-syntax.error';
import { asBoolean, asIsoTime, asJsonObject, asKeyOrValue, asNumber, asSeconds, asString, asUuid } from './filter-values';

const COMPARATORS: readonly FilterComparator[] = ['eq', 'neq', 'gt', 'gte', 'lt', 'lte', 'like', 'in', 'has', 'exists'];
const FUNCTIONS = ['and', 'or', 'not', 'search', ...COMPARATORS];

const fail = (message: string, position: number) => new FilterSyntaxError(message.replace('{at}', `at position ${position}`), position);

const EXPECTED: Record<FieldValueKind, string> = {
  uuid: 'a UUID string',
  text: 'a string',
  time: 'an ISO-8601 time string such as "2024-05-01T12:00:00Z"',
  latency: 'a number of seconds or a duration such as "5s", "1.5m" or "100ms"',
  number: 'a number',
  boolean: 'true or false',
  'key-or-value': 'a string, number or boolean',
};

const CONVERT: Record<FieldValueKind, (v: FilterScalar) => FilterScalar | undefined> = {
  uuid: asUuid,
  text: asString,
  time: asIsoTime,
  latency: asSeconds,
  number: asNumber,
  boolean: asBoolean,
  'key-or-value': asKeyOrValue,
};

function scalar(field: FilterField, kind: FieldValueKind, value: FilterScalar, position: number): FilterScalar {
  const converted = value === null ? undefined : CONVERT[kind](value);
  if (converted === undefined) {
    const got = value === null ? 'null' : JSON.stringify(value);
    throw fail(`Invalid value ${got} for ${field} {at}: expected ${EXPECTED[kind]}`, position);
  }
  return converted;
}

function condition(op: FilterComparator, call: SyntaxNode & { kind: 'call' }): FilterCondition {
  if (call.args.length !== 2) throw fail(`${op}() takes 2 arguments (a field and a value), got ${call.args.length} {at}`, call.position);
  const [fieldNode, valueNode] = call.args;
  if (fieldNode.kind !== 'name') throw fail(`Expected a field name as the first argument of ${op}() {at}`, fieldNode.position);
  if (!isFilterField(fieldNode.name)) throw fail(`Unknown field "${fieldNode.name}" {at}`, fieldNode.position);
  const field = fieldNode.name;
  const spec = FIELD_SPECS[field];
  if (!spec.ops.includes(op)) {
    throw fail(`Operator ${op}() is not allowed for field "${field}" {at}: use ${spec.ops.join(', ')}`, call.position);
  }
  const base = { type: 'condition' as const, op, field, position: call.position };
  if (valueNode.kind === 'call' || valueNode.kind === 'name') {
    throw fail(`Unexpected "${valueNode.name}" {at}: expected a value for ${field}`, valueNode.position);
  }
  if (op === 'in') {
    if (valueNode.kind !== 'array') throw fail(`in() expects a list such as ["a", "b"] {at}`, valueNode.position);
    return { ...base, value: valueNode.items.map((item) => scalar(field, spec.value, item.value, item.position)) };
  }
  if (valueNode.kind === 'array') throw fail(`A list is only allowed as the second argument of in() {at}`, valueNode.position);
  if (op === 'has' && field === 'metadata') {
    const object = asJsonObject(valueNode.value);
    if (!object) throw fail(`has(metadata, ...) expects a JSON object string such as '{"k": "v"}' {at}`, valueNode.position);
    return { ...base, value: object };
  }
  if (valueNode.value === null) {
    if ((op === 'eq' || op === 'neq') && spec.nullable) return { ...base, value: null };
    throw fail(`${field} cannot be compared with null using ${op}() {at}`, valueNode.position);
  }
  return { ...base, value: scalar(field, spec.value, valueNode.value, valueNode.position) };
}

function expression(node: SyntaxNode): FilterExpression {
  if (node.kind !== 'call') throw fail(`Expected a condition such as eq(name, "x") {at}`, node.position);
  const { name, args, position } = node;
  switch (name) {
    case 'and':
    case 'or':
      if (args.length === 0) throw fail(`${name}() needs at least 1 argument {at}`, position);
      return { type: name, args: args.map(expression), position };
    case 'not':
      if (args.length !== 1) throw fail(`not() takes 1 argument, got ${args.length} {at}`, position);
      return { type: 'not', arg: expression(args[0]), position };
    case 'search': {
      const [arg] = args;
      if (args.length !== 1) throw fail(`search() takes 1 argument, got ${args.length} {at}`, position);
      if (arg.kind !== 'literal' || typeof arg.value !== 'string') throw fail(`search() expects a string {at}`, arg.position);
      return { type: 'search', text: arg.value, position };
    }
    default:
      if ((COMPARATORS as readonly string[]).includes(name)) return condition(name as FilterComparator, node);
      throw fail(`Unknown function "${name}" {at}: expected one of ${FUNCTIONS.join(', ')}`, position);
  }
}

/** Gives a parse tree its meaning: known calls and fields, arities, operators per field, typed values. */
export function checkFilter(node: SyntaxNode): FilterExpression {
  return expression(node);
}
