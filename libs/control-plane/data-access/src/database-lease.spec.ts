import { openControlPlaneDatabase, type ControlPlaneDatabase } from './control-plane-database';
import { DatabaseLease, LeaseLostError } from './database-lease';

describe('DatabaseLease (in-memory PGlite)', () => {
  let db: ControlPlaneDatabase;

  beforeAll(async () => {
    db = await openControlPlaneDatabase({ dataDir: 'memory://' });
    await db.migrate();
  });
  afterAll(() => db?.close());

  it('has one holder at a time, renewable by it, free to take once expired or released', async () => {
    const a = new DatabaseLease(db.prisma, 'l1', 'replica-a', 300);
    const b = new DatabaseLease(db.prisma, 'l1', 'replica-b', 300);
    expect(await a.acquire()).toBe(true);
    expect(await b.acquire()).toBe(false);
    expect(await a.acquire()).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(await b.acquire()).toBe(true);
    expect(await a.acquire()).toBe(false);
    await b.release();
    expect(await a.acquire()).toBe(true);
  });

  it('is held, by the holder\'s own clock, for at most its time to live after the last grant', async () => {
    const a = new DatabaseLease(db.prisma, 'l3', 'replica-a', 300);
    const b = new DatabaseLease(db.prisma, 'l3', 'replica-b', 300);
    expect(a.held).toBe(false);
    expect(await a.acquire()).toBe(true);
    expect(a.held).toBe(true);
    expect(() => a.assertHeld()).not.toThrow();
    expect(await b.acquire()).toBe(false);
    expect(b.held).toBe(false);
    // A stalled holder (here: a blocked event loop) stops counting on the lease when its time to live is over,
    // before it has heard from the database that another replica may have taken it.
    const blockedUntil = performance.now() + 350;
    while (performance.now() < blockedUntil);
    expect(a.held).toBe(false);
    expect(() => a.assertHeld()).toThrow(LeaseLostError);
    expect(await a.acquire()).toBe(true);
    expect(a.held).toBe(true);
    await a.release();
    expect(a.held).toBe(false);
  });

  it('fences writes: a holder that lost the lease cannot write, the new holder can', async () => {
    const a = new DatabaseLease(db.prisma, 'l2', 'replica-a', 200);
    const b = new DatabaseLease(db.prisma, 'l2', 'replica-b', 10_000);
    expect(await a.acquire()).toBe(true);
    expect(await a.fenced(async (tx) => tx.lease.count())).toBeGreaterThan(0);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await b.acquire()).toBe(true);
    await expect(a.fenced(async () => 'written')).rejects.toThrow(LeaseLostError);
    await expect(b.fenced(async () => 'written')).resolves.toBe('written');
  });
});
