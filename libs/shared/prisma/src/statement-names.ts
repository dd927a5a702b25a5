/**
 * Names parameterized statements so that each pool connection parses and plans a statement once and afterwards
 * only binds and executes it (named prepared statements of the extended protocol; pg keeps them per connection).
 * On the hot paths this halves Postgres' CPU per statement. The SQL texts come from code, so there are few of
 * them; the capacity keeps texts built at run time (IN lists, search filters) from growing this map and every
 * connection's prepared statements without bound: past it, a new text runs unnamed, as it would without this.
 * Behind a connection pooler, named statements need session pooling (or PgBouncer ≥ 1.21 with
 * `max_prepared_statements` set, in transaction mode).
 */
export class StatementNames {
  private readonly names = new Map<string, string>();

  constructor(private readonly capacity = 256) {}

  /** The name of `sql`'s prepared statement, or undefined when it runs unnamed. */
  nameOf(sql: string): string | undefined {
    const known = this.names.get(sql);
    if (known !== undefined || this.names.size >= this.capacity) return known;
    const name = `platform_${this.names.size}`;
    this.names.set(sql, name);
    return name;
  }
}
