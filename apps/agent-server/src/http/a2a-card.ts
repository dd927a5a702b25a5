import type { Assistant } from '@platform/agent-server-assistants';
import type { A2aAgentCard } from './a2a.types';

export const A2A_PROTOCOL_VERSION = '0.3.0';
export const A2A_MODES = ['text/plain', 'application/json'];

const first = (value: string | undefined) => value?.split(',')[0]?.trim() || undefined;

/**
 * The URL clients reach this server at. Behind the gateway (`/deployments/{id}/...` with the prefix stripped) that
 * is what `X-Forwarded-Proto`, `X-Forwarded-Host` and `X-Forwarded-Prefix` say; otherwise the request's own.
 */
export function publicBaseUrl(header: (name: string) => string | undefined, own: { protocol: string; host: string | undefined }): string {
  const protocol = first(header('x-forwarded-proto')) ?? own.protocol;
  const host = first(header('x-forwarded-host')) ?? own.host ?? 'localhost';
  const prefix = (first(header('x-forwarded-prefix')) ?? '').replace(/\/+$/, '');
  // Only a path: anything else would let a header rewrite where clients send their messages.
  const safePrefix = /^(\/[\w.~%!$&'()*+,;=:@-]+)*$/.test(prefix) ? prefix : '';
  return `${protocol}://${host}${safePrefix}`;
}

/** The agent card of an assistant: one skill (its graph), JSON-RPC at `<base>/a2a/<assistant_id>`. */
export function agentCard(assistant: Assistant, options: { baseUrl: string; version: string; graphDescription?: string }): A2aAgentCard {
  const url = `${options.baseUrl}/a2a/${assistant.assistant_id}`;
  const description =
    assistant.description?.trim() || options.graphDescription?.trim() || `LangGraph agent '${assistant.name}' running the '${assistant.graph_id}' graph`;
  return {
    protocolVersion: A2A_PROTOCOL_VERSION,
    name: assistant.name,
    description,
    url,
    preferredTransport: 'JSONRPC',
    additionalInterfaces: [{ url, transport: 'JSONRPC' }],
    version: options.version,
    capabilities: { streaming: true, pushNotifications: false, stateTransitionHistory: false },
    defaultInputModes: A2A_MODES,
    defaultOutputModes: A2A_MODES,
    skills: [
      {
        id: `${assistant.graph_id}-main`,
        name: assistant.name === assistant.graph_id ? `${assistant.graph_id} graph` : assistant.name,
        description,
        tags: ['langgraph', assistant.graph_id],
        inputModes: A2A_MODES,
        outputModes: A2A_MODES,
      },
    ],
    supportsAuthenticatedExtendedCard: false,
  };
}
