import type { Database } from './database.types';
import { openDatabase } from './open-database';
import { describeOnScratchPostgres } from './scratch-database.testing';

describeOnScratchPostgres('Postgres database', (scratch) => {
  let db: Database;
  beforeAll(async () => {
    db = await openDatabase({ url: scratch().url, dataDir: 'unused' });
  });
  afterAll(() => db?.close());

  const preparedOnThisConnection = (session: Pick<Database, 'query'>) =>
    session.query<{ statement: string }>(`SELECT statement FROM pg_prepared_statements`);

  it('prepares a statement with parameters once per connection and reuses it', async () => {
    await db.withSession(async (session) => {
      const sql = `SELECT $1::int + $2::int AS sum`;
      expect(await session.query(sql, [1, 2])).toEqual([{ sum: 3 }]);
      expect(await session.query(sql, [40, 2])).toEqual([{ sum: 42 }]);
      const prepared = (await preparedOnThisConnection(session)).filter((row) => row.statement === sql);
      expect(prepared).toHaveLength(1);
    });
  });

  it('keeps statements without parameters on the simple protocol, which takes several at once', async () => {
    await db.withSession(async (session) => {
      await session.query(`CREATE TEMP TABLE t (n int); INSERT INTO t VALUES (7)`);
      expect(await session.query(`SELECT n FROM t`)).toEqual([{ n: 7 }]);
      const texts = (await preparedOnThisConnection(session)).map((row) => row.statement);
      expect(texts.filter((text) => text.includes('FROM t'))).toEqual([]);
    });
  });

  it('reuses a prepared statement inside transactions and after one of its executions fails', async () => {
    const sql = `SELECT 10 / $1::int AS q`;
    await expect(db.transaction((tx) => tx.query(sql, [0]))).rejects.toThrow(/division by zero/);
    expect(await db.transaction((tx) => tx.query(sql, [5]))).toEqual([{ q: 2 }]);
    expect(await db.query(sql, [2])).toEqual([{ q: 5 }]);
  });

  it('still answers a prepared statement after a migration changed the rows it returns', async () => {
    await db.exec(`CREATE TABLE widened (id int PRIMARY KEY)`);
    await db.exec(`INSERT INTO widened VALUES (1)`);
    const sql = `SELECT * FROM widened WHERE id = $1`;
    await db.withSession(async (session) => {
      expect(await session.query(sql, [1])).toEqual([{ id: 1 }]);
      await session.exec(`ALTER TABLE widened ADD COLUMN label text DEFAULT 'new'`);
      expect(await session.query(sql, [1])).toEqual([{ id: 1, label: 'new' }]);
      expect(await session.query(sql, [1])).toEqual([{ id: 1, label: 'new' }]);
    });
  });

  it('fails a transaction whose prepared statement a migration outdated, then prepares it afresh', async () => {
    await db.exec(`CREATE TABLE widened_tx (id int PRIMARY KEY); INSERT INTO widened_tx VALUES (1)`);
    const sql = `SELECT * FROM widened_tx WHERE id = $1`;
    // One connection, so the statement is prepared on the connection the transaction gets.
    const single = await openDatabase({ url: scratch().url, dataDir: 'unused', poolSize: 1 });
    try {
      expect(await single.transaction((tx) => tx.query(sql, [1]))).toEqual([{ id: 1 }]);
      await db.exec(`ALTER TABLE widened_tx ADD COLUMN label text DEFAULT 'new'`);
      await expect(single.transaction((tx) => tx.query(sql, [1]))).rejects.toThrow(/cached plan must not change result type/);
      expect(await single.transaction((tx) => tx.query(sql, [1]))).toEqual([{ id: 1, label: 'new' }]);
    } finally {
      await single.close();
    }
  });

  it('runs a transaction Postgres aborted to end a deadlock again, so both sides commit', async () => {
    await db.exec(`CREATE TABLE deadlocked (id int PRIMARY KEY, n int NOT NULL); INSERT INTO deadlocked VALUES (1, 0), (2, 0)`);
    // Each transaction locks one row, waits until the other holds its own, then asks for the other's: a deadlock,
    // the first time only.
    let held = 0;
    const bothHeld = async () => {
      held++;
      while (held < 2) await new Promise((resolve) => setTimeout(resolve, 5));
    };
    const attempts = { first: 0, second: 0 };
    const crosswise = (name: 'first' | 'second', mine: number, theirs: number) =>
      db.transaction(async (tx) => {
        attempts[name]++;
        await tx.query(`UPDATE deadlocked SET n = n + 1 WHERE id = $1`, [mine]);
        if (attempts[name] === 1) await bothHeld();
        await tx.query(`UPDATE deadlocked SET n = n + 1 WHERE id = $1`, [theirs]);
      });
    await Promise.all([crosswise('first', 1, 2), crosswise('second', 2, 1)]);
    expect(attempts.first + attempts.second).toBe(3);
    expect(await db.query(`SELECT id, n FROM deadlocked ORDER BY id`)).toEqual([
      { id: 1, n: 2 },
      { id: 2, n: 2 },
    ]);
  });

  it('runs a statement Postgres aborted to end a deadlock again, whichever side it aborted', async () => {
    await db.exec(`CREATE TABLE deadlocked_statement (id int PRIMARY KEY, n int NOT NULL); INSERT INTO deadlocked_statement VALUES (1, 0), (2, 0)`);
    const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
    let firstAttempt = true;
    const transaction = db.transaction(async (tx) => {
      await tx.query(`UPDATE deadlocked_statement SET n = n + 1 WHERE id = $1`, [1]);
      if (firstAttempt) await pause(150); // the statement below takes row 2 meanwhile
      firstAttempt = false;
      await tx.query(`UPDATE deadlocked_statement SET n = n + 1 WHERE id = $1`, [2]);
    });
    await pause(50);
    // One statement that takes row 2, waits, then wants row 1.
    const statement = db.query(
      `WITH a AS (UPDATE deadlocked_statement SET n = n + 1 WHERE id = $1 RETURNING id),
            b AS (SELECT pg_sleep(0.3) FROM a),
            c AS (UPDATE deadlocked_statement SET n = n + 1 WHERE id = $2 AND EXISTS (SELECT 1 FROM b) RETURNING id)
       SELECT count(*)::int AS n FROM c`,
      [2, 1],
    );
    await Promise.all([transaction, statement]);
    expect(await db.query(`SELECT id, n FROM deadlocked_statement ORDER BY id`)).toEqual([
      { id: 1, n: 2 },
      { id: 2, n: 2 },
    ]);
  });

  it('reports a statement that does not parse, and runs it again (still failing) without confusion', async () => {
    const sql = `SELEC $1`;
    await expect(db.query(sql, [1])).rejects.toThrow(/syntax error/);
    await expect(db.query(sql, [1])).rejects.toThrow(/syntax error/);
    expect(await db.query(`SELECT $1::text AS v`, ['ok'])).toEqual([{ v: 'ok' }]);
  });
});
