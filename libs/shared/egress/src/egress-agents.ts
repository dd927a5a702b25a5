import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import type { Duplex } from 'node:stream';
import type { EgressPolicy } from './egress-policy';
import { bareHost } from './ip-address';

type ConnectionCallback = (err: Error | null, socket?: Duplex) => void;
type CreateConnection = (options: Record<string, unknown>, cb: ConnectionCallback) => Duplex | undefined;

/**
 * A host given as an IP literal never goes through `lookup` (net connects to it directly): check it here; every
 * other host connects through the policy's `lookup`, so the socket's address is the one that was checked.
 */
function guarded(policy: EgressPolicy, connect: CreateConnection): CreateConnection {
  return (options, cb) => {
    const host = bareHost(String(options['host'] ?? options['hostname'] ?? 'localhost'));
    if (net.isIP(host)) {
      const refused = policy.refusal(host);
      if (refused) {
        cb(refused);
        return undefined;
      }
    }
    return connect({ ...options, lookup: policy.lookup }, cb);
  };
}

export interface EgressAgents {
  httpAgent: http.Agent;
  httpsAgent: https.Agent;
}

/** http and https agents whose every connection obeys `policy` (for the AWS SDK's NodeHttpHandler, webhooks, ...). */
export function egressAgents(policy: EgressPolicy, options: http.AgentOptions = {}): EgressAgents {
  const httpAgent = new http.Agent(options);
  const httpsAgent = new https.Agent(options);
  for (const agent of [httpAgent, httpsAgent]) {
    const target = agent as unknown as { createConnection: CreateConnection };
    target.createConnection = guarded(policy, target.createConnection.bind(agent));
  }
  return { httpAgent, httpsAgent };
}
