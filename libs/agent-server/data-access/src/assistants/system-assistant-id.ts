import { createHash } from 'node:crypto';

/** The namespace LangGraph Platform derives system assistant ids from (RFC 4122's URL namespace). */
export const SYSTEM_ASSISTANT_NAMESPACE = '6ba7b821-9dad-11d1-80b4-00c04fd430c8';

/** RFC 4122 version-5 (SHA-1, name-based) UUID of `name` in `namespace`. */
export function uuid5(name: string, namespace: string): string {
  const hash = createHash('sha1')
    .update(Buffer.from(namespace.replaceAll('-', ''), 'hex'))
    .update(name, 'utf8')
    .digest();
  hash[6] = (hash[6] & 0x0f) | 0x50;
  hash[8] = (hash[8] & 0x3f) | 0x80;
  const hex = hash.subarray(0, 16).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** The id of the system assistant LangGraph Platform creates for a graph: uuid5(graph_id, URL namespace). */
export function systemAssistantId(graphId: string): string {
  return uuid5(graphId, SYSTEM_ASSISTANT_NAMESPACE);
}
