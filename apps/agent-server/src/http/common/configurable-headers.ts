import type { IncomingHttpHeaders } from 'node:http';
import { TRUSTED_HEADER_NAMES } from '@platform/identity';
import type { HttpConfig } from '@platform/agent-server-graphs';

/** Request headers a run gets in `config.configurable`: name → value. */
export type ConfigurableHeaders = (headers: IncomingHttpHeaders) => Record<string, string>;

// Never copied: the gateway's signed identity and what the platform carries in-process.
const INTERNAL = new Set([...TRUSTED_HEADER_NAMES, 'x-platform-caller']);
// Left out unless `includes` names them, as LangGraph does.
const BLOCKED_BY_DEFAULT = new Set(['x-api-key', 'x-tenant-id', 'x-service-key']);

// `*` matches any run of characters; nothing else is a pattern (as LangGraph documents it).
function matcher(patterns: string[]): (name: string) => boolean {
  const regexes = patterns.map((pattern) => new RegExp(`^${pattern.toLowerCase().split('*').map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('.*')}$`));
  return (name) => regexes.some((regex) => regex.test(name));
}

/**
 * Which request headers reach a run's `configurable` (langgraph.json `http.configurable_headers`): by default every
 * `x-*` header and `user-agent` but `x-api-key`, `x-tenant-id` and `x-service-key`, as LangGraph copies them; with
 * `includes`, only the headers it matches; `excludes` wins over both.
 */
export function configurableHeaders(config: HttpConfig['configurable_headers']): ConfigurableHeaders {
  const included = config?.includes ? matcher(config.includes) : (name: string) => (name.startsWith('x-') && !BLOCKED_BY_DEFAULT.has(name)) || name === 'user-agent';
  const excluded = matcher(config?.excludes ?? []);
  return (headers) => {
    const copied: Record<string, string> = {};
    for (const [name, value] of Object.entries(headers)) {
      if (typeof value !== 'string' || INTERNAL.has(name) || !included(name) || excluded(name)) continue;
      copied[name] = value;
    }
    return copied;
  };
}
