/**
 * SQL text with its `$n` parameters written in as literals, for a statement that takes no bind parameters
 * (`COPY (SELECT ...) TO STDOUT`). The SQL text itself is this lib's (fixed column text, compiled filters); only the
 * values come from outside, and each becomes one escaped literal that the server reads back as the same text a bind
 * parameter would carry.
 */

/** A value a `$n` may stand for: what the page SQL and the filter compiler bind. */
export type SqlParam = string | number | bigint | boolean | null | readonly (string | number | bigint | boolean)[];

/**
 * A string literal that reads back as `text` whatever `standard_conforming_strings` is: an E'' string, with
 * backslashes and quotes doubled (what pg's `escapeLiteral` writes for text with a backslash). Postgres text cannot
 * hold NUL, and a NUL would end the query text early, so it is refused (as binding it fails: "invalid byte sequence").
 */
export function quoteSqlString(text: string): string {
  if (text.includes('\0')) throw new Error('A SQL literal cannot hold a NUL character');
  return `E'${text.replace(/\\/g, '\\\\').replace(/'/g, "''")}'`;
}

function scalarText(value: string | number | bigint | boolean): string {
  switch (typeof value) {
    case 'string':
      return value;
    case 'bigint':
      return value.toString();
    case 'number':
    case 'boolean':
      // As pg writes a bound number or boolean: String(value) ("NaN", "1e+21", "true" included).
      return String(value);
    default:
      throw new Error(`Unsupported SQL parameter of type ${typeof value}`);
  }
}

/**
 * The literal for one parameter. Every non-null value is a quoted string (never a bare number: `- -1` would open a
 * comment); SQL casts it as it casts an untyped bound parameter, by the `::type` the SQL gives it or by its context
 * (`LIMIT '1000'`). A list becomes `ARRAY[...]` of quoted strings (the SQL casts it, `::text[]`, `::uuid[]`).
 */
export function sqlLiteral(value: unknown): string {
  if (value === null) return 'NULL';
  if (Array.isArray(value)) {
    return `ARRAY[${value
      .map((item: unknown) => {
        if (item === null || typeof item === 'object' || typeof item === 'undefined') throw new Error('Unsupported SQL array element');
        return quoteSqlString(scalarText(item as string | number | bigint | boolean));
      })
      .join(', ')}]`;
  }
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'bigint' || typeof value === 'boolean') {
    return quoteSqlString(scalarText(value));
  }
  throw new Error(`Unsupported SQL parameter ${Object.prototype.toString.call(value)}`);
}

/**
 * Writes each `$n` of `sql` as the literal of `params[n - 1]`. Quoted text ('...' with '' inside, "...") is copied as
 * it is, so a `$` in a string constant (a JSON path, `'strict $.**'`) is left alone; a `$n` out of range, dollar
 * quoting and comments are refused, since this SQL never has them.
 */
export function inlineSqlParams(sql: string, params: readonly unknown[]): string {
  let out = '';
  let from = 0;
  let i = 0;
  while (i < sql.length) {
    const ch = sql[i];
    if (ch === "'" || ch === '"') {
      // An E'' constant would give backslash a meaning this scan does not follow.
      if (ch === "'" && i > 0 && /[eE]/.test(sql[i - 1]) && (i < 2 || !/[A-Za-z0-9_]/.test(sql[i - 2]))) {
        throw new Error('Escape-string constants are not supported in inlined SQL');
      }
      // To the closing quote; a doubled quote is part of the text.
      let j = i + 1;
      for (;;) {
        if (j >= sql.length) throw new Error('Unterminated quoted text in SQL');
        if (sql[j] === ch) {
          if (sql[j + 1] === ch) {
            j += 2;
            continue;
          }
          break;
        }
        j++;
      }
      i = j + 1;
      continue;
    }
    if ((ch === '-' && sql[i + 1] === '-') || (ch === '/' && sql[i + 1] === '*')) throw new Error('Comments are not supported in inlined SQL');
    if (ch === '$') {
      const match = /^\$(\d+)/.exec(sql.slice(i, i + 12));
      if (!match) throw new Error('Dollar quoting is not supported in inlined SQL');
      if (i > 0 && /[A-Za-z0-9_$]/.test(sql[i - 1])) throw new Error('A parameter must not follow a name');
      const n = Number(match[1]);
      if (n < 1 || n > params.length) throw new Error(`No value for parameter $${n}`);
      out += `${sql.slice(from, i)}${sqlLiteral(params[n - 1])}`;
      i += match[0].length;
      from = i;
      continue;
    }
    i++;
  }
  return out + sql.slice(from);
}
