import type { FilterCondition, FilterExpression, FilterScalar } from './filter-ast';
import { COLUMN_FIELDS, pairFamilyOf, type PairFamily } from './filter-columns';
import { parseFilter } from './parse-filter';

/** Where the compiled SQL sits in the caller's statement. */
export interface CompileFilterOptions {
  /** Alias of the `runs` table in the caller's FROM clause (default `r`). */
  alias?: string;
  /** Number of the first `$n` placeholder (default 1), so the caller's own parameters can come first. */
  firstParam?: number;
  /**
   * Feedback conditions (`feedback_key`, `feedback_score`) only match feedback last modified in `[from, to)`
   * (ISO-8601 times; either bound may be left open).
   */
  feedbackModified?: { from?: string; to?: string };
}

/** A boolean SQL expression over `FROM runs <alias>`, with its `$n` parameters in order. */
export interface CompiledFilter {
  sql: string;
  params: unknown[];
}

interface PairGroup {
  family: PairFamily;
  key?: FilterCondition;
  value?: FilterCondition;
}

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;
const COMPARE_SQL = { eq: '=', gt: '>', gte: '>=', lt: '<', lte: '<=' } as const;

// Parameters are bound as text (or text arrays) and cast in SQL, so pg, PGlite and Prisma's raw queries all
// bind them the same way.
const paramText = (value: FilterScalar): string => (typeof value === 'string' ? value : String(value));

class Compiler {
  readonly params: unknown[] = [];
  private subqueries = 0;

  constructor(
    private readonly a: string,
    private readonly firstParam: number,
    private readonly feedbackModified: NonNullable<CompileFilterOptions['feedbackModified']> = {},
  ) {}

  private param(value: unknown, cast: string): string {
    this.params.push(value);
    return `$${this.firstParam + this.params.length - 1}::${cast}`;
  }

  private subquery(prefix: string): string {
    this.subqueries += 1;
    return `${this.a}_${prefix}${this.subqueries}`;
  }

  compile(expr: FilterExpression): string {
    switch (expr.type) {
      case 'and':
        return `(${this.bindPairs(expr.args).join(' AND ')})`;
      case 'or':
        return `(${expr.args.map((arg) => this.compile(arg)).join(' OR ')})`;
      case 'not':
        // coalesce: a comparison with a NULL column is "no match", and so its negation is a match.
        return `(NOT coalesce(${this.compile(expr.arg)}, false))`;
      case 'search':
        return this.search(expr.text);
      case 'condition': {
        const pair = pairFamilyOf(expr.field);
        return pair ? this.pair({ family: pair.family, [pair.role]: expr }) : this.condition(expr);
      }
    }
  }

  // Inside one and(...), a key and a value of the same family describe one entry: each condition joins the
  // family's latest group unless that group already has its role, in which case it starts a new group.
  private bindPairs(args: FilterExpression[]): string[] {
    const items: (FilterExpression | PairGroup)[] = [];
    const latest = new Map<PairFamily, PairGroup>();
    for (const arg of args) {
      const pair = arg.type === 'condition' ? pairFamilyOf(arg.field) : undefined;
      if (!pair) {
        items.push(arg);
        continue;
      }
      let group = latest.get(pair.family);
      if (!group || group[pair.role]) {
        group = { family: pair.family };
        latest.set(pair.family, group);
        items.push(group);
      }
      group[pair.role] = arg as FilterCondition;
    }
    return items.map((item) => ('family' in item ? this.pair(item) : this.compile(item)));
  }

  private pair(group: PairGroup): string {
    const { a } = this;
    const conditions = (alias: string, keyColumn: string, valueColumn: string, valueCast: string) =>
      [
        group.key && this.compare(`${alias}.${keyColumn}`, 'text', group.key),
        group.value && this.compare(`${alias}.${valueColumn}`, valueCast, group.value),
      ].filter(Boolean);
    if (group.family === 'feedback') {
      const f = this.subquery('fb');
      const where = [`${f}.tenant_id = ${a}.tenant_id`, `${f}.run_id = ${a}.id`, ...conditions(f, 'key', 'score', 'float8')];
      const { from, to } = this.feedbackModified;
      if (from !== undefined) where.push(`${f}.updated_at >= ${this.param(from, 'timestamptz')}`);
      if (to !== undefined) where.push(`${f}.updated_at < ${this.param(to, 'timestamptz')}`);
      return `EXISTS (SELECT 1 FROM feedback ${f} WHERE ${where.join(' AND ')})`;
    }
    const source = group.family === 'metadata' ? `${a}.extra->'metadata'` : `${a}.inputs`;
    const kv = this.subquery('kv');
    // jsonb_each_text fails on arrays and scalars; anything but an object has no entries.
    const entries = `jsonb_each_text(CASE WHEN jsonb_typeof(${source}) = 'object' THEN ${source} END)`;
    return `EXISTS (SELECT 1 FROM ${entries} AS ${kv}(key, value) WHERE ${conditions(kv, 'key', 'value', 'text').join(' AND ')})`;
  }

  private condition(c: FilterCondition): string {
    const { a } = this;
    if (c.field === 'tags') return `${a}.tags @> ARRAY[${this.param(c.value, 'text')}]`;
    if (c.field === 'metadata' && c.op === 'has') return `(${a}.extra->'metadata') @> ${this.param(JSON.stringify(c.value), 'jsonb')}`;
    if (c.field === 'metadata') return `((${a}.extra->'metadata') -> ${this.param(c.value, 'text')}) IS NOT NULL`;
    const column = COLUMN_FIELDS[c.field];
    if (!column) throw new Error(`No column for filter field ${c.field}`);
    return this.compare(column.sql(a), column.cast, c);
  }

  private compare(sql: string, cast: string, c: FilterCondition): string {
    const value = c.value as FilterScalar | FilterScalar[];
    switch (c.op) {
      case 'in': {
        const list = value as FilterScalar[];
        return list.length === 0 ? 'false' : `${sql} = ANY(${this.param(list.map(paramText), `${cast}[]`)})`;
      }
      case 'like':
        return `${sql} LIKE ${this.param(value, 'text')}`;
      case 'neq':
        return value === null ? `${sql} IS NOT NULL` : `${sql} IS DISTINCT FROM ${this.param(paramText(value as FilterScalar), cast)}`;
      case 'eq':
      case 'gt':
      case 'gte':
      case 'lt':
      case 'lte':
        if (value === null) return `${sql} IS NULL`;
        return `${sql} ${COMPARE_SQL[c.op]} ${this.param(paramText(value as FilterScalar), cast)}`;
      default:
        throw new Error(`Operator ${c.op} does not apply to ${c.field}`);
    }
  }

  // Case-insensitive substring of the name, the error, and any string value (at any depth) of inputs and outputs.
  private search(text: string): string {
    const { a } = this;
    const pattern = this.param(`%${text.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`, 'text');
    const inJson = (column: string) => {
      const s = this.subquery('s');
      return `EXISTS (SELECT 1 FROM jsonb_path_query(${a}.${column}, 'strict $.**') AS ${s}(v) WHERE jsonb_typeof(${s}.v) = 'string' AND (${s}.v #>> '{}') ILIKE ${pattern})`;
    };
    return `(${a}.name ILIKE ${pattern} OR ${a}.error ILIKE ${pattern} OR ${inJson('inputs')} OR ${inJson('outputs')})`;
  }
}

/**
 * Compiles a filter (text or a parsed {@link FilterExpression}) to a parameterised Postgres boolean expression for
 * `SELECT ... FROM runs <alias> WHERE ... AND (<sql>)`. Column names come from a fixed map; every value is a `$n`
 * parameter with a cast. Text is parsed first, so this throws {@link FilterSyntaxError} for a bad filter.
 *
 * Semantics (see the lib's README): `neq` is `IS DISTINCT FROM` (rows where the column is null match);
 * `eq/neq(field, null)` are `IS NULL`/`IS NOT NULL`; `not(x)` matches where `x` does not (including where `x`
 * compares a null column); `like` is case-sensitive SQL LIKE (`%`, `_`, `\` escapes); `search` is a
 * case-insensitive substring of name, error and any string value of inputs/outputs; `latency` is seconds from
 * start to end; inside one `and(...)` key/value fields of one family bind to the same entry.
 */
export function compileFilter(filter: string | FilterExpression, options: CompileFilterOptions = {}): CompiledFilter {
  const alias = options.alias ?? 'r';
  const firstParam = options.firstParam ?? 1;
  if (!IDENTIFIER.test(alias)) throw new Error(`Invalid table alias ${JSON.stringify(alias)}`);
  if (!Number.isInteger(firstParam) || firstParam < 1) throw new Error(`Invalid first parameter number ${firstParam}`);
  const expr = typeof filter === 'string' ? parseFilter(filter) : filter;
  const compiler = new Compiler(alias, firstParam, options.feedbackModified);
  const sql = compiler.compile(expr);
  return { sql, params: compiler.params };
}

/** Whether a filter (text or parsed) has a feedback condition (`feedback_key`, `feedback_score`) anywhere. */
export function hasFeedbackCondition(filter: string | FilterExpression): boolean {
  const expr = typeof filter === 'string' ? parseFilter(filter) : filter;
  switch (expr.type) {
    case 'and':
    case 'or':
      return expr.args.some(hasFeedbackCondition);
    case 'not':
      return hasFeedbackCondition(expr.arg);
    case 'search':
      return false;
    case 'condition':
      return pairFamilyOf(expr.field)?.family === 'feedback';
  }
}
