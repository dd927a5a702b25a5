import type { ProtocolEvent } from './protocol-events';

/** What one `POST /threads/{id}/stream/events` connection asks for (`EventStreamRequest`). */
export interface ProtocolFilter {
  channels: string[];
  namespaces?: string[][];
  depth?: number;
}

function channelOf(event: ProtocolEvent): string | undefined {
  switch (event.method) {
    case 'values':
    case 'checkpoints':
    case 'updates':
    case 'messages':
    case 'tools':
    case 'lifecycle':
    case 'tasks':
      return event.method;
    case 'custom': {
      const name = (event.params.data as { name?: unknown } | null)?.name;
      return name != null ? `custom:${String(name)}` : 'custom';
    }
    case 'input.requested':
    case 'input.answered':
      return 'input';
    default:
      return undefined;
  }
}

// A filter segment without `:` also matches a namespace segment's name before its task id (`agent` ~ `agent:<id>`).
function isPrefix(namespace: string[], prefix: string[]): boolean {
  if (prefix.length > namespace.length) return false;
  return prefix.every((segment, i) => namespace[i] === segment || (!segment.includes(':') && namespace[i].split(':')[0] === segment));
}

/** Whether the connection gets the event: the same rules as the SDK's own per-subscription narrowing. */
export function matchesFilter(event: ProtocolEvent, filter: ProtocolFilter): boolean {
  const channel = channelOf(event);
  if (channel === undefined) return false;
  if (!filter.channels.includes(channel) && !(channel.startsWith('custom:') && filter.channels.includes('custom'))) return false;
  if (!filter.namespaces || filter.namespaces.length === 0) return true;
  const { namespace } = event.params;
  return filter.namespaces.some((prefix) => isPrefix(namespace, prefix) && (filter.depth === undefined || namespace.length - prefix.length <= filter.depth));
}
