import { inlineSqlParams, quoteSqlString, sqlLiteral } from './sql-literals';

describe('quoteSqlString', () => {
  it('writes an E-string with backslashes and quotes doubled, whatever the text', () => {
    expect(quoteSqlString('plain')).toBe("E'plain'");
    expect(quoteSqlString("it's")).toBe("E'it''s'");
    expect(quoteSqlString('a\\b')).toBe("E'a\\\\b'");
    expect(quoteSqlString("\\'; DROP TABLE runs; --")).toBe("E'\\\\''; DROP TABLE runs; --'");
    expect(quoteSqlString('line\nbreak é 😀')).toBe("E'line\nbreak é 😀'");
  });

  it('refuses NUL, which Postgres text cannot hold and which would end the query text', () => {
    expect(() => quoteSqlString('a\0b')).toThrow('NUL');
  });
});

describe('sqlLiteral', () => {
  it('quotes every value as text, numbers and booleans included, so a sign never meets an operator', () => {
    expect(sqlLiteral(-1)).toBe("E'-1'");
    expect(sqlLiteral(1000)).toBe("E'1000'");
    expect(sqlLiteral(10n ** 20n)).toBe("E'100000000000000000000'");
    expect(sqlLiteral(true)).toBe("E'true'");
    expect(sqlLiteral(null)).toBe('NULL');
    expect(sqlLiteral(['a', "b'c", 3])).toBe("ARRAY[E'a', E'b''c', E'3']");
  });

  it('refuses values it has no literal for', () => {
    expect(() => sqlLiteral(undefined)).toThrow();
    expect(() => sqlLiteral({ a: 1 })).toThrow();
    expect(() => sqlLiteral(new Date())).toThrow();
    expect(() => sqlLiteral(Buffer.from('x'))).toThrow();
    expect(() => sqlLiteral([null])).toThrow();
    expect(() => sqlLiteral([['nested']])).toThrow();
  });
});

describe('inlineSqlParams', () => {
  it('writes each $n as its literal, $10 included, and leaves quoted text alone', () => {
    const params = Array.from({ length: 10 }, (_, i) => `v${i + 1}`);
    expect(inlineSqlParams('a = $1::uuid AND b = $10::text AND c < $2', params)).toBe("a = E'v1'::uuid AND b = E'v10'::text AND c < E'v2'");
    expect(inlineSqlParams(`jsonb_path_query(r.inputs, 'strict $.**') AND x = $1 AND y = 'it''s $1' AND "we$1rd" = $2`, ['p', 'q'])).toBe(
      `jsonb_path_query(r.inputs, 'strict $.**') AND x = E'p' AND y = 'it''s $1' AND "we$1rd" = E'q'`,
    );
  });

  it('does not let a value reopen the SQL: the quote and the backslash stay inside the literal', () => {
    const sql = inlineSqlParams('r.name = $1::text', ["x' OR true --"]);
    expect(sql).toBe("r.name = E'x'' OR true --'::text");
    expect(inlineSqlParams('r.name = $1::text', ["x\\' OR true --"])).toBe("r.name = E'x\\\\'' OR true --'::text");
  });

  it('refuses SQL it does not read: a missing value, dollar quoting, comments, escape strings, unterminated text', () => {
    expect(() => inlineSqlParams('a = $2', ['x'])).toThrow('No value for parameter $2');
    expect(() => inlineSqlParams('a = $0', ['x'])).toThrow('No value');
    expect(() => inlineSqlParams('a = $$x$$', [])).toThrow('Dollar quoting');
    expect(() => inlineSqlParams('a = 1 -- $1', ['x'])).toThrow('Comments');
    expect(() => inlineSqlParams('a = 1 /* $1 */', ['x'])).toThrow('Comments');
    expect(() => inlineSqlParams("a = E'\\'' AND b = $1", ['x'])).toThrow('Escape-string');
    expect(() => inlineSqlParams("a = 'open $1", ['x'])).toThrow('Unterminated');
    expect(() => inlineSqlParams('a$1', ['x'])).toThrow('must not follow a name');
  });
});
