import http from 'node:http';
import https from 'node:https';
import type { EgressAgents } from './egress-agents';

export interface EgressPostOptions {
  agents: EgressAgents;
  headers?: Record<string, string>;
  timeoutMs: number;
}

/**
 * POSTs `body` through the guarded agents and answers the status; the response body is read and dropped.
 * Redirects are not followed (a redirect could point anywhere, the policy's check notwithstanding).
 */
export function egressPost(url: string, body: string, options: EgressPostOptions): Promise<number> {
  const target = new URL(url);
  const secure = target.protocol === 'https:';
  if (!secure && target.protocol !== 'http:') return Promise.reject(new Error(`${target.protocol} URLs are not allowed (http or https only)`));
  return new Promise((resolve, reject) => {
    const request = (secure ? https : http).request(
      target,
      {
        method: 'POST',
        agent: secure ? options.agents.httpsAgent : options.agents.httpAgent,
        headers: { 'content-length': String(Buffer.byteLength(body)), ...options.headers },
        signal: AbortSignal.timeout(options.timeoutMs),
      },
      (res) => {
        res.on('error', reject);
        res.on('end', () => resolve(res.statusCode ?? 0));
        res.resume();
      },
    );
    request.on('error', reject);
    request.end(body);
  });
}
