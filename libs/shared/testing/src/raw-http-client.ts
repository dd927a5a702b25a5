import { connect, type Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';

/**
 * A raw TCP connection to an HTTP server, for clients no HTTP library plays: headers sent in part, a body that
 * stops. Collects what the server answers and when it closed the connection.
 */
export class RawHttpClient {
  readonly socket: Socket;
  received = '';
  closedAt?: number;
  private readonly closed: Promise<void>;

  constructor(url: string) {
    const { hostname, port } = new URL(url);
    this.socket = connect(Number(port), hostname.replace(/^\[|\]$/g, ''));
    this.socket.on('data', (chunk: Buffer) => (this.received += chunk.toString('latin1')));
    this.socket.on('error', () => undefined);
    this.closed = new Promise((resolve) =>
      this.socket.once('close', () => {
        this.closedAt = Date.now();
        resolve();
      }),
    );
  }

  write(data: string | Buffer): Promise<void> {
    return new Promise((resolve, reject) => this.socket.write(data, (err) => (err ? reject(err) : resolve())));
  }

  /** Waits until the server closed the connection; fails past `withinMs`. */
  async closedWithin(withinMs: number): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`still open after ${withinMs} ms; received ${JSON.stringify(this.received.slice(0, 500))}`)), withinMs);
    });
    try {
      await Promise.race([this.closed, late]);
    } finally {
      clearTimeout(timer);
    }
  }

  /** Waits until `text` has been received; fails past `withinMs`. */
  async receives(text: string, withinMs = 10_000): Promise<void> {
    const until = Date.now() + withinMs;
    while (!this.received.includes(text)) {
      if (Date.now() > until) throw new Error(`no ${JSON.stringify(text)} after ${withinMs} ms; received ${JSON.stringify(this.received.slice(0, 500))}`);
      await sleep(10);
    }
  }

  close(): void {
    this.socket.destroy();
  }
}

/** An HTTP/1.1 request head: request line, `Host`, the given headers, the blank line. */
export function requestHead(method: string, path: string, headers: Record<string, string | number> = {}): string {
  return [`${method} ${path} HTTP/1.1`, 'Host: localhost', ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`), '', ''].join('\r\n');
}
