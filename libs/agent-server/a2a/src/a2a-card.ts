import type { Assistant } from '@platform/agent-server-assistants';
import type { A2aAgentCard } from './a2a.types';

export const A2A_PROTOCOL_VERSION = '0.3.0';
export const A2A_MODES = ['text/plain', 'application/json'];

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
