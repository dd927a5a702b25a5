import { FILTER_FIELDS } from './filter-fields';
import { FilterSyntaxError } from './filter-syntax.error';
import { parseFilter } from './parse-filter';
import { InputError } from '@platform/errors';

const UUID = '0190f1c2-8f0e-7b3a-9c1d-2e3f4a5b6c7d';

function failure(text: string): { message: string; position: number } {
  try {
    parseFilter(text);
  } catch (err) {
    if (!(err instanceof FilterSyntaxError)) throw err;
    return { message: err.message, position: err.position };
  }
  throw new Error(`expected ${text} to fail`);
}

describe('parseFilter: calls and literals', () => {
  it('parses the examples of the compatibility notes', () => {
    expect(parseFilter('and(eq(run_type, "chain"), gt(latency, 10), gt(total_tokens, 5000))')).toEqual({
      type: 'and',
      position: 0,
      args: [
        { type: 'condition', op: 'eq', field: 'run_type', value: 'chain', position: 4 },
        { type: 'condition', op: 'gt', field: 'latency', value: 10, position: 27 },
        { type: 'condition', op: 'gt', field: 'total_tokens', value: 5000, position: 44 },
      ],
    });
    expect(
      parseFilter(
        'and(gt(start_time, "2023-07-15T12:34:56Z"), or(neq(error, null), and(eq(feedback_key, "Correctness"), eq(feedback_score, 0.0))))',
      ),
    ).toMatchObject({ type: 'and', args: [{ field: 'start_time' }, { type: 'or', args: [{ op: 'neq', value: null }, { type: 'and' }] }] });
    expect(parseFilter('and(in(metadata_key, ["session_id","thread_id"]), eq(metadata_value, "abc"))')).toMatchObject({
      args: [{ op: 'in', value: ['session_id', 'thread_id'] }, { op: 'eq', field: 'metadata_value', value: 'abc' }],
    });
  });

  it('reads both quote styles with escapes', () => {
    const value = (text: string) => (parseFilter(text) as { value: unknown }).value;
    expect(value(`eq(name, 'it\\'s "x"')`)).toBe(`it's "x"`);
    expect(value(`eq(name, "say \\"hi\\"\\n\\t\\\\ \\u00e9 'ok'")`)).toBe(`say "hi"\n\t\\ é 'ok'`);
    expect(value(`eq(name, "a,b)(c")`)).toBe('a,b)(c');
    expect(value(`eq(name, "")`)).toBe('');
  });

  it('reads integers, floats, negatives and exponents', () => {
    const value = (text: string) => (parseFilter(text) as { value: unknown }).value;
    expect(value('gt(total_tokens, 42)')).toBe(42);
    expect(value('gt(total_cost, 0.25)')).toBe(0.25);
    expect(value('gt(feedback_score, -1.5)')).toBe(-1.5);
    expect(value('gt(total_cost, 1e-3)')).toBe(0.001);
    expect(value('gt(total_cost, .5)')).toBe(0.5);
  });

  it('accepts true, false and null where a field allows them', () => {
    expect(parseFilter('eq(is_root, true)')).toMatchObject({ value: true });
    expect(parseFilter('neq(is_root, false)')).toMatchObject({ op: 'neq', value: false });
    expect(parseFilter('eq(error, null)')).toMatchObject({ value: null });
    expect(parseFilter('neq(parent_run_id, null)')).toMatchObject({ value: null });
  });

  it('nests and, or and not, with whitespace anywhere', () => {
    expect(parseFilter(' not ( or ( has(tags,"a") , and(has(tags, "b")) ) ) ')).toMatchObject({
      type: 'not',
      position: 1,
      arg: { type: 'or', args: [{ op: 'has' }, { type: 'and', args: [{ op: 'has', value: 'b' }] }] },
    });
    expect(parseFilter('search("hello world")')).toEqual({ type: 'search', text: 'hello world', position: 0 });
  });
});

describe('parseFilter: fields and values', () => {
  it.each([
    ['id', `eq(id, "${UUID.toUpperCase()}")`, UUID],
    ['trace_id', `eq(trace_id, "${UUID}")`, UUID],
    ['session_id', `neq(session_id, "${UUID}")`, UUID],
    ['parent_run_id', `eq(parent_run_id, "${UUID}")`, UUID],
    ['reference_example_id', `eq(reference_example_id, "${UUID}")`, UUID],
    ['name', 'like(name, "Chat%")', 'Chat%'],
    ['run_type', 'eq(run_type, "llm")', 'llm'],
    ['status', 'neq(status, "success")', 'success'],
    ['error', 'like(error, "%Timeout%")', '%Timeout%'],
    ['trace_tier', 'eq(trace_tier, "longlived")', 'longlived'],
    ['thread_id', 'eq(thread_id, "t-1")', 't-1'],
    ['start_time', 'gte(start_time, "2024-05-01T12:00:00.123456Z")', '2024-05-01T12:00:00.123456Z'],
    ['end_time', 'lt(end_time, "2024-05-01 12:00:00+02:00")', '2024-05-01T12:00:00+02:00'],
    ['first_token_time', 'gt(first_token_time, "2024-05-01")', '2024-05-01T00:00:00Z'],
    ['latency', 'gt(latency, 2.5)', 2.5],
    ['total_tokens', 'gt(total_tokens, 5000)', 5000],
    ['prompt_tokens', 'lte(prompt_tokens, 10)', 10],
    ['completion_tokens', 'lt(completion_tokens, 10)', 10],
    ['total_cost', 'gt(total_cost, 0.01)', 0.01],
    ['prompt_cost', 'gte(prompt_cost, 0)', 0],
    ['completion_cost', 'eq(completion_cost, 1)', 1],
    ['tags', 'has(tags, "prod")', 'prod'],
    ['is_root', 'eq(is_root, true)', true],
    ['metadata', `has(metadata, '{"model": "gpt-4", "n": 1}')`, { model: 'gpt-4', n: 1 }],
    ['metadata', 'exists(metadata, "model")', 'model'],
    ['metadata_key', 'eq(metadata_key, "model")', 'model'],
    ['metadata_value', 'eq(metadata_value, 3)', '3'],
    ['input_key', 'like(input_key, "q%")', 'q%'],
    ['input_value', 'eq(input_value, true)', 'true'],
    ['feedback_key', 'eq(feedback_key, "Correctness")', 'Correctness'],
    ['feedback_score', 'gte(feedback_score, 0.5)', 0.5],
  ])('%s: %s', (field, text, value) => {
    expect(parseFilter(text)).toMatchObject({ type: 'condition', field, value });
  });

  it('covers every field the language knows', () => {
    expect(FILTER_FIELDS).toHaveLength(30);
  });

  it('reads latency as seconds or a duration', () => {
    const seconds = (v: string) => (parseFilter(`gt(latency, ${v})`) as { value: number }).value;
    expect(seconds('"5s"')).toBe(5);
    expect(seconds('"1.5m"')).toBe(90);
    expect(seconds('"100ms"')).toBeCloseTo(0.1);
    expect(seconds('"2h"')).toBe(7200);
    expect(seconds('"3"')).toBe(3);
  });

  it('keeps in() lists typed per field', () => {
    expect(parseFilter('in(run_type, ["llm", "tool"])')).toMatchObject({ op: 'in', value: ['llm', 'tool'] });
    expect(parseFilter(`in(id, ["${UUID}"])`)).toMatchObject({ value: [UUID] });
    expect(parseFilter('in(feedback_score, [0, 1])')).toMatchObject({ value: [0, 1] });
    expect(parseFilter('in(name, [])')).toMatchObject({ value: [] });
  });
});

describe('parseFilter: errors carry the position', () => {
  it.each([
    ['empty input', '', 0, 'Empty filter at position 0'],
    ['only spaces', '   ', 0, 'Empty filter at position 0'],
    ['unclosed paren', 'and(eq(name, "a")', 17, 'Unexpected end of input at position 17: expected "," or ")" to close "and(" at position 0'],
    ['trailing comma', 'and(eq(name, "a"), )', 19, 'Unexpected ")" at position 19: expected a value'],
    ['trailing comma in a list', 'in(name, ["a",])', 14, 'Unexpected "]" at position 14: expected a value'],
    ['unknown call', 'and(equals(name, "a"))', 4, 'Unknown function "equals" at position 4'],
    ['unknown field', 'eq(nmae, "a")', 3, 'Unknown field "nmae" at position 3'],
    ['bad literal', 'gt(latency, 12abc)', 12, 'Invalid literal "12abc" at position 12'],
    ['bad number', 'gt(latency, 1.2.3)', 12, 'Invalid literal "1.2.3" at position 12'],
    ['stray character', 'eq(name, @x)', 9, 'Unexpected character "@" at position 9'],
    ['unterminated string', 'eq(name, "abc)', 9, 'Unterminated string starting at position 9'],
    ['bad escape', 'eq(name, "a\\qb")', 11, 'Invalid escape sequence at position 11'],
    ['wrong arity (3)', 'eq(name, "a", "b")', 0, 'eq() takes 2 arguments (a field and a value), got 3 at position 0'],
    ['wrong arity (1)', 'gt(latency)', 0, 'gt() takes 2 arguments (a field and a value), got 1 at position 0'],
    ['not with two', 'not(has(tags, "a"), has(tags, "b"))', 0, 'not() takes 1 argument, got 2 at position 0'],
    ['empty and', 'and()', 0, 'and() needs at least 1 argument at position 0'],
    ['trailing garbage', 'eq(name, "a") eq(name, "b")', 14, 'Unexpected "eq" at position 14: expected end of input'],
    ['trailing paren', 'eq(name, "a"))', 13, 'Unexpected ")" at position 13: expected end of input'],
    ['bare name at the top', 'name', 4, 'Unexpected end of input at position 4: expected "(" after "name"'],
    ['literal at the top', '"x"', 0, 'Unexpected string "x" at position 0: expected a call'],
    ['missing comma', 'eq(name "a")', 8, 'Unexpected string "a" at position 8: expected "," or ")"'],
    ['operator not allowed', 'gt(tags, 1)', 0, 'Operator gt() is not allowed for field "tags" at position 0: use has'],
    ['like on numbers', 'like(total_tokens, "1%")', 0, 'Operator like() is not allowed for field "total_tokens"'],
    ['time type', 'gt(start_time, 5)', 15, 'Invalid value 5 for start_time at position 15: expected an ISO-8601 time'],
    ['impossible date', 'gt(start_time, "2024-02-30T00:00:00Z")', 15, 'Invalid value "2024-02-30T00:00:00Z" for start_time'],
    ['uuid type', 'eq(trace_id, "abc")', 13, 'Invalid value "abc" for trace_id at position 13: expected a UUID string'],
    ['number type', 'gt(total_tokens, "many")', 17, 'Invalid value "many" for total_tokens at position 17: expected a number'],
    ['duration', 'gt(latency, "5 parsecs")', 12, 'Invalid value "5 parsecs" for latency'],
    ['boolean type', 'eq(is_root, "yes")', 12, 'Invalid value "yes" for is_root at position 12: expected true or false'],
    ['string type', 'eq(name, 5)', 9, 'Invalid value 5 for name at position 9: expected a string'],
    ['null where not nullable', 'eq(status, null)', 11, 'status cannot be compared with null using eq() at position 11'],
    ['null with gt', 'gt(end_time, null)', 13, 'end_time cannot be compared with null using gt()'],
    ['in without list', 'in(name, "a")', 9, 'in() expects a list such as ["a", "b"] at position 9'],
    ['list outside in', 'eq(name, ["a"])', 9, 'A list is only allowed as the second argument of in() at position 9'],
    ['typed list items', 'in(id, ["x"])', 8, 'Invalid value "x" for id at position 8'],
    ['metadata json', `has(metadata, '{"a": ')`, 14, 'has(metadata, ...) expects a JSON object string'],
    ['field as string', 'eq("name", "a")', 3, 'Expected a field name as the first argument of eq() at position 3'],
    ['call as value', 'eq(name, lower("a"))', 9, 'Unexpected "lower" at position 9: expected a value for name'],
    ['value inside and', 'and(eq(name, "a"), true)', 19, 'Expected a condition such as eq(name, "x") at position 19'],
    ['search needs a string', 'search(5)', 7, 'search() expects a string at position 7'],
  ])('%s: %s', (_label, text, position, message) => {
    const err = failure(text);
    expect(err.position).toBe(position);
    expect(err.message).toContain(message);
  });

  it('refuses nesting deep enough to exhaust the stack', () => {
    const deep = (n: number) => `${'not('.repeat(n)}eq(name, "a")${')'.repeat(n)}`;
    expect(parseFilter(deep(60))).toMatchObject({ type: 'not' });
    expect(failure(deep(100_000))).toEqual({ message: 'Filter nests deeper than 64 calls at position 256', position: 256 });
  });

  it('is an InputError, so transports answer 400 / INVALID_ARGUMENT', () => {
    expect(() => parseFilter('eq(')).toThrow(InputError);
  });
});
