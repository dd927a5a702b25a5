import { z } from 'zod';
import type { A2aV1AgentCard, agentCardV03 } from '@platform/agent-server-a2a';
import type { SameShape } from '@platform/openapi';

// The card's query and the endpoint's path name the agent alike.
export const agentRef = z.object({ assistant_id: z.string().min(1).describe('Assistant id or graph id') });

const skill = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  tags: z.array(z.string()),
  examples: z.array(z.string()).optional(),
  inputModes: z.array(z.string()).optional(),
  outputModes: z.array(z.string()).optional(),
});
const agentInterface = z.object({ url: z.string(), protocolBinding: z.literal('JSONRPC'), protocolVersion: z.string() });

/** The agent card in A2A 1.0's shape (`A2A-Version: 1.x`). */
export const agentCardV1Response = z.object({
  name: z.string(),
  description: z.string(),
  supportedInterfaces: z.array(agentInterface),
  version: z.string(),
  capabilities: z.object({ streaming: z.boolean(), pushNotifications: z.boolean(), extendedAgentCard: z.boolean() }),
  defaultInputModes: z.array(z.string()),
  defaultOutputModes: z.array(z.string()),
  skills: z.array(skill),
});

/** The agent card in A2A 0.3's shape (no header), listing the 1.0 interface too. */
export const agentCardV03Response = z.object({
  protocolVersion: z.string(),
  name: z.string(),
  description: z.string(),
  url: z.string(),
  preferredTransport: z.literal('JSONRPC'),
  additionalInterfaces: z.array(z.object({ url: z.string(), transport: z.string() })),
  version: z.string(),
  capabilities: z.object({ streaming: z.boolean(), pushNotifications: z.boolean(), stateTransitionHistory: z.boolean() }),
  defaultInputModes: z.array(z.string()),
  defaultOutputModes: z.array(z.string()),
  skills: z.array(skill),
  supportsAuthenticatedExtendedCard: z.boolean(),
  supportedInterfaces: z.array(agentInterface),
});

const _v1: SameShape<z.output<typeof agentCardV1Response>, A2aV1AgentCard> = true;
const _v03: SameShape<z.output<typeof agentCardV03Response>, ReturnType<typeof agentCardV03>> = true;

export const agentCardResponse = z.union([agentCardV1Response, agentCardV03Response]);

/** The request header that picks the protocol version. */
export const a2aVersionHeader = {
  'A2A-Version': { description: '1.x: protocol 1.0; absent: 0.3 (another version: error -32009)', schema: z.string() },
};
