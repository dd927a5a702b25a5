import type { Database } from './database.types';
import { guardTransactions } from './transaction-guard';

const statement = (sql: string, args: unknown[] = []) => ({ sql, args, argTypes: args.map(() => ({ arity: 'scalar' as const, scalarType: 'int' as const })) });

/**
 * How a guarded adapter's transactions end, on a real database; `open` gives a fresh database for each test.
 * The statements are issued the way Prisma's transaction manager issues them: its own COMMIT/ROLLBACK through
 * `executeRaw`, then `commit()`/`rollback()`.
 */
export function describeTransactionGuard(open: () => Promise<Database>, close: (db: Database) => Promise<void>): void {
  let db: Database;
  beforeEach(async () => {
    db = await open();
    await db.exec('CREATE TABLE guarded (n int)');
  });
  afterEach(async () => {
    await db.exec('DROP TABLE guarded');
    await close(db);
  });

  const rows = async () => (await db.query<{ n: number }>('SELECT n FROM guarded ORDER BY n')).map((r) => r.n);

  it('refuses a statement issued after the ROLLBACK while one before it is still running, and leaks no write', async () => {
    const adapter = await guardTransactions(db.adapter).connect();
    const tx = await adapter.startTransaction();
    // As when Prisma's timeout fires mid-operation: the operation's statement is under way, the ROLLBACK is
    // issued, and the operation then issues its next statement on the same transaction.
    const before = tx.executeRaw(statement('INSERT INTO guarded VALUES ($1)', [1]));
    const end = tx.options.usePhantomQuery ? tx.rollback() : tx.executeRaw(statement('ROLLBACK'));
    const after = tx.executeRaw(statement('INSERT INTO guarded VALUES ($1)', [2]));
    await expect(after).rejects.toMatchObject({ name: 'DriverAdapterError', cause: { kind: 'TransactionAlreadyClosed' } });
    await expect(before).resolves.toBe(1);
    await end;
    if (!tx.options.usePhantomQuery) await tx.rollback();
    await expect(tx.queryRaw(statement('SELECT 1'))).rejects.toMatchObject({ cause: { kind: 'TransactionAlreadyClosed' } });
    expect(await rows()).toEqual([]);
    await adapter.dispose();
  });

  it('runs statements before the COMMIT in the transaction and refuses those after it', async () => {
    const adapter = await guardTransactions(db.adapter).connect();
    const tx = await adapter.startTransaction();
    await tx.executeRaw(statement('INSERT INTO guarded VALUES ($1)', [1]));
    await tx.executeRaw(statement('INSERT INTO guarded VALUES ($1)', [2]));
    if (!tx.options.usePhantomQuery) await tx.executeRaw(statement('COMMIT'));
    await tx.commit();
    await expect(tx.executeRaw(statement('INSERT INTO guarded VALUES ($1)', [3]))).rejects.toMatchObject({ cause: { kind: 'TransactionAlreadyClosed' } });
    expect(await rows()).toEqual([1, 2]);
    await adapter.dispose();
  });

  it('leaves statements outside transactions alone', async () => {
    const adapter = await guardTransactions(db.adapter).connect();
    await adapter.executeRaw(statement('INSERT INTO guarded VALUES ($1)', [7]));
    const result = await adapter.queryRaw(statement('SELECT n FROM guarded'));
    expect(result.rows).toEqual([[7]]);
    await adapter.dispose();
  });
}
