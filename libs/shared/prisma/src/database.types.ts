import type { SqlDriverAdapterFactory } from '@prisma/client/runtime/client';

/** A Prisma driver adapter factory; pass it as `new PrismaClient({ adapter })`. */
export type DriverAdapterFactory = SqlDriverAdapterFactory;

/** Raw SQL on one connection or transaction. */
export interface SqlRunner {
  /** Runs a script of one or more statements without parameters (e.g. a migration file). */
  exec(sql: string): Promise<void>;
  /** Runs one statement with `$1`… parameters and returns its rows. */
  query<Row = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<Row[]>;
}

/** A connection that can also open transactions. */
export interface SqlSession extends SqlRunner {
  /** Runs `fn` in a transaction: committed when it resolves, rolled back when it throws. */
  transaction<T>(fn: (tx: SqlRunner) => Promise<T>): Promise<T>;
}

/** What `listen` calls back with. */
export interface NotificationHandler {
  /** One `NOTIFY channel, payload` (payload '' when none was given). */
  onNotify(payload: string): void;
  /**
   * The listening connection was lost and is back: notifications sent meanwhile are gone, so a subscriber
   * re-reads whatever state it follows.
   */
  onReconnect?(): void;
  /** The listening connection was lost (it is being re-opened): from now until `onReconnect`, nothing is heard. */
  onDisconnect?(): void;
}

/** Postgres LISTEN/NOTIFY, on Postgres and PGlite alike. */
export interface Notifications {
  /**
   * Subscribes to `channel` (a lower-case SQL identifier). Resolves once the LISTEN is in place; the returned
   * function unsubscribes.
   */
  listen(channel: string, handler: NotificationHandler): Promise<() => Promise<void>>;
  /** `pg_notify(channel, payload)` outside any transaction (inside one, run `SELECT pg_notify(...)` on it). */
  notify(channel: string, payload: string): Promise<void>;
}

/** An open database: Postgres (through a pg pool) or PGlite (in-process). */
export interface Database extends SqlSession, Notifications {
  readonly kind: 'postgres' | 'pglite';
  /** The driver adapter for Prisma Client, sharing this database's connections. */
  readonly adapter: DriverAdapterFactory;
  /** Runs `fn` on one connection held throughout, so session state (advisory locks) carries over. */
  withSession<T>(fn: (session: SqlSession) => Promise<T>): Promise<T>;
  /** Closes the pool or the PGlite instance. Disconnect Prisma clients using `adapter` first. */
  close(): Promise<void>;
}
