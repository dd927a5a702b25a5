import type { PrismaClient } from './generated/prisma/client';

/** The lease was lost (expired and taken by another replica): the holder must stop writing. */
export class LeaseLostError extends Error {
  constructor(name: string) {
    super(`lease ${name} is no longer held`);
    this.name = 'LeaseLostError';
  }
}

type Tx = Parameters<Parameters<PrismaClient['$transaction']>[0]>[0];

/**
 * A named lease in the database: at most one holder until it expires (the database's clock decides), renewed by
 * the holder. Writes that must come from the holder only run through `fenced`, which locks the lease row. What
 * the database cannot fence (calls to other systems) checks `held` first: the holder's own, stricter view.
 */
export class DatabaseLease {
  /** performance.now() until which this holder may count on the lease (0: not held). */
  private validUntil = 0;

  constructor(
    private readonly prisma: PrismaClient,
    readonly name: string,
    readonly holder: string,
    readonly ttlMs: number,
  ) {}

  /** Takes the lease when free or expired, or renews it when held; true when this holder has it afterwards. */
  async acquire(): Promise<boolean> {
    const sentAt = performance.now();
    const rows = await this.prisma.$queryRawUnsafe<{ holder: string }[]>(
      `INSERT INTO leases (name, holder, expires_at) VALUES ($1, $2, now() + ($3::int * interval '1 millisecond'))
       ON CONFLICT (name) DO UPDATE SET holder = EXCLUDED.holder, expires_at = EXCLUDED.expires_at
       WHERE leases.holder = EXCLUDED.holder OR leases.expires_at < now()
       RETURNING holder`,
      this.name,
      this.holder,
      this.ttlMs,
    );
    const held = rows.length === 1 && rows[0].holder === this.holder;
    // The database granted `ttl` from some moment after `sentAt`: counting from `sentAt` errs on the safe side.
    this.validUntil = held ? sentAt + this.ttlMs : 0;
    return held;
  }

  /**
   * Whether this holder can still count on the lease by its own clock: granted by the database, and less than the
   * lease's time to live since that grant was asked for. A holder stalled past it (a blocked event loop, a
   * database it cannot reach) may have been replaced, even if it has not heard so yet.
   */
  get held(): boolean {
    return performance.now() < this.validUntil;
  }

  /** Throws LeaseLostError unless `held`. */
  assertHeld(): void {
    if (!this.held) throw new LeaseLostError(this.name);
  }

  /** Gives the lease up (graceful shutdown), so another replica need not wait for it to expire. */
  async release(): Promise<void> {
    this.validUntil = 0;
    await this.prisma.lease.deleteMany({ where: { name: this.name, holder: this.holder } });
  }

  /** Runs `work` in a transaction that first checks (and locks) that this holder still has the lease. */
  async fenced<T>(work: (tx: Tx) => Promise<T>): Promise<T> {
    return this.prisma.$transaction(async (tx) => {
      const held = await tx.$queryRawUnsafe<unknown[]>(
        'SELECT 1 FROM leases WHERE name = $1 AND holder = $2 AND expires_at > now() FOR SHARE',
        this.name,
        this.holder,
      );
      if (held.length === 0) throw new LeaseLostError(this.name);
      return work(tx);
    });
  }
}
