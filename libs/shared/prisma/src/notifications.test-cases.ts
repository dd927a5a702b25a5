import type { Database } from './database.types';

/** Waits until `check` holds, polling every 10 ms, or fails after `timeoutMs`. */
export async function eventually(check: () => boolean, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** LISTEN/NOTIFY behaviour every Database must have; `open` gives a fresh database for each test. */
export function describeNotifications(open: () => Promise<Database>, close: (db: Database) => Promise<void>): void {
  let db: Database;
  beforeEach(async () => {
    db = await open();
  });
  afterEach(() => close(db));

  it('delivers notify() and committed pg_notify to every listener of the channel', async () => {
    const a: string[] = [];
    const b: string[] = [];
    await db.listen('runs_test', { onNotify: (p) => a.push(p) });
    await db.listen('runs_test', { onNotify: (p) => b.push(p) });
    await db.notify('runs_test', 'one');
    await db.transaction(async (tx) => {
      await tx.query('SELECT pg_notify($1, $2)', ['runs_test', 'two']);
    });
    await eventually(() => a.length === 2 && b.length === 2);
    expect(a).toEqual(['one', 'two']);
    expect(b).toEqual(['one', 'two']);
  });

  it('drops a notification sent in a rolled-back transaction and stops after unlisten', async () => {
    const got: string[] = [];
    const unlisten = await db.listen('runs_test', { onNotify: (p) => got.push(p) });
    await expect(
      db.transaction(async (tx) => {
        await tx.query('SELECT pg_notify($1, $2)', ['runs_test', 'lost']);
        throw new Error('rollback');
      }),
    ).rejects.toThrow('rollback');
    await db.notify('runs_test', 'kept');
    await eventually(() => got.length === 1);
    await unlisten();
    await db.notify('runs_test', 'after');
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(got).toEqual(['kept']);
  });

  it('refuses a channel name that is not a plain identifier', async () => {
    await expect(db.listen('bad"; DROP', { onNotify: () => undefined })).rejects.toThrow(/invalid notification channel/);
    await expect(db.notify('Upper', 'x')).rejects.toThrow(/invalid notification channel/);
  });
}
