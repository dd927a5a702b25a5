import { once } from 'node:events';
import type { Response } from 'express';

export interface SseEvent {
  event: string;
  /** JSON text (one line: JSON.stringify never emits a raw newline). */
  data: string;
  id?: number | string;
}

/**
 * A Server-Sent Events response: `event:`, one `data:` line and `id:` per event, a `: heartbeat` comment whenever
 * nothing was written for `heartbeatMs` (proxies close silent connections), and backpressure (a slow client slows
 * the writer, not the server's memory).
 */
export class SseWriter {
  private lastWrite = Date.now();
  private timer: NodeJS.Timeout | undefined;
  private closed = false;

  constructor(
    private readonly res: Response,
    private readonly heartbeatMs: number,
  ) {
    res.on('close', () => this.stop());
  }

  /** Sends the status line and headers at once, so the client sees the stream open before the first event. */
  open(headers: Record<string, string> = {}): void {
    this.res.writeHead(200, {
      'Content-Type': 'text/event-stream; charset=utf-8',
      'Cache-Control': 'no-cache, no-transform',
      Connection: 'keep-alive',
      'X-Accel-Buffering': 'no',
      ...headers,
    });
    this.res.flushHeaders();
    this.res.socket?.setNoDelay(true);
    this.timer = setInterval(() => {
      if (Date.now() - this.lastWrite >= this.heartbeatMs) void this.write(': heartbeat\n\n');
    }, Math.max(50, Math.floor(this.heartbeatMs / 2)));
    this.timer.unref();
  }

  get isClosed(): boolean {
    return this.closed || this.res.destroyed;
  }

  send(event: SseEvent): Promise<void> {
    const id = event.id === undefined ? '' : `id: ${event.id}\n`;
    return this.write(`event: ${event.event}\ndata: ${event.data}\n${id}\n`);
  }

  end(): void {
    this.stop();
    if (!this.res.writableEnded) this.res.end();
  }

  private async write(text: string): Promise<void> {
    if (this.isClosed) return;
    this.lastWrite = Date.now();
    if (!this.res.write(text)) await Promise.race([once(this.res, 'drain'), once(this.res, 'close')]);
  }

  private stop(): void {
    this.closed = true;
    clearInterval(this.timer);
  }
}
