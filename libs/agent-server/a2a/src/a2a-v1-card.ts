import type { Assistant } from '@platform/agent-server-assistants';
import { agentCard } from './a2a-card';
import type { A2aAgentCard } from './a2a.types';
import type { A2aV1AgentCard, A2aV1AgentInterface } from './a2a-v1.types';
import { A2A_VERSIONS } from './a2a-version';

type CardOptions = Parameters<typeof agentCard>[1];

/** The JSON-RPC interfaces of an agent: one URL speaking 1.0 and 0.3 (told apart by the `A2A-Version` header), 1.0 first. */
export function a2aInterfaces(url: string): A2aV1AgentInterface[] {
  return A2A_VERSIONS.map((protocolVersion) => ({ url, protocolBinding: 'JSONRPC', protocolVersion }));
}

/** The agent card for A2A 1.0 clients: the 0.3 card's content with 1.0's structure (`supportedInterfaces`, capabilities). */
export function agentCardV1(assistant: Assistant, options: CardOptions): A2aV1AgentCard {
  const card = agentCard(assistant, options);
  return {
    name: card.name,
    description: card.description,
    supportedInterfaces: a2aInterfaces(card.url),
    version: card.version,
    capabilities: { streaming: card.capabilities.streaming, pushNotifications: card.capabilities.pushNotifications, extendedAgentCard: false },
    defaultInputModes: card.defaultInputModes,
    defaultOutputModes: card.defaultOutputModes,
    skills: card.skills,
  };
}

/**
 * The agent card for 0.3 clients (and any client that does not say its version), with 1.0's `supportedInterfaces`
 * added, so that a 1.0 client finds the 1.0 interface in it too.
 */
export function agentCardV03(assistant: Assistant, options: CardOptions): A2aAgentCard & { supportedInterfaces: A2aV1AgentInterface[] } {
  const card = agentCard(assistant, options);
  return { ...card, supportedInterfaces: a2aInterfaces(card.url) };
}
