import pg from 'pg';
import type { NotificationHandler } from './database.types';
import { asDatabaseUnavailable } from './database-unavailable';
import { checkedChannel } from './notification-channel';

const RETRY_MIN_MS = 100;
const RETRY_MAX_MS = 5_000;

/**
 * LISTEN on Postgres through one dedicated connection (a pooled one would hand the LISTEN to whoever takes it
 * next). A lost connection is re-opened with backoff, every channel is listened to again and each handler's
 * `onReconnect` runs, since notifications sent while it was down are lost.
 */
export class PostgresListener {
  private readonly handlers = new Map<string, Set<NotificationHandler>>();
  private client: pg.Client | undefined;
  private connecting: Promise<pg.Client> | undefined;
  private retryMs = RETRY_MIN_MS;
  private retryTimer: NodeJS.Timeout | undefined;
  private closed = false;

  constructor(private readonly url: string) {}

  async listen(channel: string, handler: NotificationHandler): Promise<() => Promise<void>> {
    const name = checkedChannel(channel);
    let set = this.handlers.get(name);
    const first = !set;
    if (!set) {
      set = new Set();
      this.handlers.set(name, set);
    }
    set.add(handler);
    const client = await this.connection();
    if (first) await client.query(`LISTEN "${name}"`).catch((err: unknown) => Promise.reject(asDatabaseUnavailable(err)));
    return async () => {
      const current = this.handlers.get(name);
      if (!current?.delete(handler) || current.size > 0) return;
      this.handlers.delete(name);
      await this.client?.query(`UNLISTEN "${name}"`).catch(() => undefined);
    };
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.retryTimer);
    const client = this.client ?? (await this.connecting?.catch(() => undefined));
    this.client = undefined;
    await client?.end().catch(() => undefined);
  }

  private connection(): Promise<pg.Client> {
    if (this.closed) return Promise.reject(new Error('listener is closed'));
    if (this.client) return Promise.resolve(this.client);
    this.connecting ??= this.open().finally(() => {
      this.connecting = undefined;
    });
    return this.connecting;
  }

  private async open(): Promise<pg.Client> {
    const client = new pg.Client({ connectionString: this.url });
    client.on('notification', (message) => {
      for (const handler of this.handlers.get(message.channel) ?? []) handler.onNotify(message.payload ?? '');
    });
    // 'error' and 'end' both mean the connection is gone; only the first of them schedules a reconnect.
    const lost = () => {
      if (this.client !== client) return;
      this.client = undefined;
      for (const set of this.handlers.values()) for (const handler of set) handler.onDisconnect?.();
      this.scheduleReconnect();
    };
    client.on('error', lost);
    client.on('end', lost);
    try {
      await client.connect();
      for (const channel of this.handlers.keys()) await client.query(`LISTEN "${channel}"`);
    } catch (err) {
      // Cut before it was in use (a server still starting up): close it, the next attempt opens another.
      await client.end().catch(() => undefined);
      throw asDatabaseUnavailable(err);
    }
    this.client = client;
    this.retryMs = RETRY_MIN_MS;
    return client;
  }

  private scheduleReconnect(): void {
    if (this.closed || this.retryTimer) return;
    this.retryTimer = setTimeout(() => {
      this.retryTimer = undefined;
      this.connection().then(
        () => {
          for (const set of this.handlers.values()) for (const handler of set) handler.onReconnect?.();
        },
        () => {
          this.retryMs = Math.min(this.retryMs * 2, RETRY_MAX_MS);
          this.scheduleReconnect();
        },
      );
    }, this.retryMs);
    this.retryTimer.unref();
  }
}
