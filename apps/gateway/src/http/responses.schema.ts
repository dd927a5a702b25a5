import { z } from 'zod';
import type { BrowserSessionJson } from '@platform/gateway-identity';
import type { SameShape } from '@platform/openapi';
import type { apiKeyJson, workspaceJson } from './admin-json';

// The response shapes of the gateway's own API, for the OpenAPI document (checked below at compile time).

const timestamp = z.string().describe('ISO 8601');
const role = z.enum(['admin', 'member']);

export const workspaceResponse = z.object({ id: z.string(), organization_id: z.string(), display_name: z.string(), created_at: timestamp });

export const apiKeyResponse = z.object({
  id: z.string(),
  organization_id: z.string(),
  workspace_id: z.string().nullable().describe('null: valid in every workspace of the organization'),
  short_key: z.string(),
  description: z.string(),
  role,
  created_at: timestamp,
  last_used_at: timestamp.nullable(),
  revoked_at: timestamp.nullable(),
});

export const createdApiKeyResponse = apiKeyResponse.extend({ key: z.string().describe('The key itself: shown this once') });

export const browserSessionResponse = z.object({
  organization_id: z.string(),
  workspace_id: z.string().nullable().describe('Where requests go; null until one is picked'),
  workspaces: z.array(z.object({ id: z.string(), display_name: z.string() })),
  api_key: z.object({ id: z.string(), short_key: z.string(), description: z.string(), role, workspace_id: z.string().nullable() }),
  expires_at: timestamp.nullable(),
  csrf_token: z.string().nullable(),
});

export const serviceKeyResponse = z.object({ id: z.string(), workspace_id: z.string().nullable(), key: z.string() });

const _workspace: SameShape<z.output<typeof workspaceResponse>, ReturnType<typeof workspaceJson>> = true;
const _apiKey: SameShape<z.output<typeof apiKeyResponse>, ReturnType<typeof apiKeyJson>> = true;
const _session: SameShape<z.output<typeof browserSessionResponse>, BrowserSessionJson> = true;
