// A lean keep-alive HTTP load: `concurrency` clients, each sending its next GET as soon as the last answer is read,
// on its own kept-alive connection; every answer must be 200.
import { Agent, request } from 'node:http';

export interface LoadResult {
  requests: number;
  seconds: number;
  /** Milliseconds, sorted. */
  latencies: number[];
}

function get(agent: Agent, url: URL, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const req = request(url, { agent, headers }, (res) => {
      if (res.statusCode !== 200) {
        res.resume();
        reject(new Error(`GET ${url.pathname} answered ${res.statusCode}`));
        return;
      }
      res.on('data', () => undefined);
      res.on('end', () => resolve(performance.now() - started));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

/** `requests` GETs of `url` over `concurrency` kept-alive connections. */
export async function runLoad(url: string, headers: () => Record<string, string>, requests: number, concurrency: number): Promise<LoadResult> {
  const agent = new Agent({ keepAlive: true, maxSockets: concurrency });
  const target = new URL(url);
  const latencies: number[] = [];
  let sent = 0;
  const started = performance.now();
  try {
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        const own = headers();
        while (sent < requests) {
          sent++;
          latencies.push(await get(agent, target, own));
        }
      }),
    );
  } finally {
    agent.destroy();
  }
  return { requests, seconds: (performance.now() - started) / 1000, latencies: latencies.sort((a, b) => a - b) };
}

export function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}
