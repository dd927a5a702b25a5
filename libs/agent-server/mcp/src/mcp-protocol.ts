import { z } from 'zod';

/** MCP revisions this server speaks, newest first (tools only, so they differ in nothing it uses). */
export const MCP_PROTOCOL_VERSIONS = ['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05'] as const;
export const LATEST_MCP_PROTOCOL_VERSION = MCP_PROTOCOL_VERSIONS[0];

/** The client's version when we speak it, else our latest (the client then decides whether to go on). */
export function negotiateProtocolVersion(requested: string): string {
  return (MCP_PROTOCOL_VERSIONS as readonly string[]).includes(requested) ? requested : LATEST_MCP_PROTOCOL_VERSION;
}

/**
 * Why an `MCP-Protocol-Version` header is refused, or undefined when it is absent (the transport spec says to
 * assume 2025-03-26 then) or supported.
 */
export function unsupportedVersionHeader(header: string | undefined): string | undefined {
  if (header === undefined || (MCP_PROTOCOL_VERSIONS as readonly string[]).includes(header.trim())) return undefined;
  return `Bad Request: unsupported MCP-Protocol-Version "${header}" (supported: ${MCP_PROTOCOL_VERSIONS.join(', ')})`;
}

// Params carry `_meta` and, from newer clients, fields we do not know: objects are loose.
export const initializeParams = z.looseObject({
  protocolVersion: z.string({ error: 'protocolVersion must be a string' }),
  capabilities: z.looseObject({}).optional(),
  clientInfo: z.looseObject({ name: z.string(), version: z.string() }).optional(),
});

export const listToolsParams = z.looseObject({ cursor: z.string({ error: 'cursor must be a string' }).optional() }).optional();

export const callToolParams = z.looseObject({
  name: z.string({ error: 'name must be a string' }).min(1, 'name must not be empty'),
  arguments: z.record(z.string(), z.unknown(), { error: 'arguments must be an object' }).optional(),
});
