import { z } from 'zod';
import { DEPLOYMENT_STATUSES, REVISION_STATUSES } from '@platform/control-plane-data-access';
import type { deploymentJson, revisionJson, RevisionLogsJson } from '@platform/control-plane-deployments';
import type { AuthenticateResult, WaitResult, providerJson } from '@platform/control-plane-oauth';
import type { SameShape } from '@platform/openapi';

// The response shapes of `/v2`, for the OpenAPI document: what deploymentJson & co. send (checked below at compile time).

const config = z.record(z.string(), z.unknown());
const timestamp = z.string().describe('ISO 8601');

export const deploymentResponse = z.object({
  id: z.string(),
  tenant_id: z.string(),
  name: z.string(),
  source: z.string(),
  source_config: config,
  source_revision_config: config,
  secrets: z.array(z.object({ name: z.string() })),
  status: z.enum(DEPLOYMENT_STATUSES),
  latest_revision_id: z.string().nullable(),
  active_revision_id: z.string().nullable(),
  created_at: timestamp,
  updated_at: timestamp,
});

export const revisionResponse = z.object({
  id: z.string(),
  deployment_id: z.string(),
  status: z.enum(REVISION_STATUSES),
  status_message: z.string().nullable(),
  source: z.string(),
  source_revision_config: config,
  created_at: timestamp,
  updated_at: timestamp,
});

export const revisionLogsResponse = z.object({
  logs: z.array(z.object({ id: z.string(), type: z.enum(['build', 'deploy']), level: z.enum(['INFO', 'ERROR']), message: z.string(), timestamp })),
  next_offset: z.string().nullable(),
});

export const pageOf = <T extends z.ZodType>(resource: T) => z.object({ resources: z.array(resource), offset: z.number().int() });

export const providerResponse = z.object({
  id: z.string(),
  provider_id: z.string(),
  name: z.string(),
  client_id: z.string(),
  auth_url: z.string(),
  token_url: z.string(),
  uses_pkce: z.boolean(),
  code_challenge_method: z.string().nullable(),
  created_at: timestamp,
  updated_at: timestamp,
});

export const authenticateResponse = z.discriminatedUnion('status', [
  z.object({ status: z.literal('completed'), auth_id: z.string(), token: z.string() }),
  z.object({ status: z.literal('pending'), auth_id: z.string(), url: z.string() }),
]);

export const waitResponse = z.union([
  z.object({ status: z.literal('completed'), token: z.string(), auth_id: z.string() }),
  z.object({ status: z.literal('failed'), auth_id: z.string(), error: z.string().nullable(), error_description: z.string().nullable() }),
  z.object({ status: z.enum(['pending', 'timeout', 'not_found']), auth_id: z.string().optional() }),
]);

export const callbackJsonResponse = z.object({
  auth_id: z.string(),
  provider_id: z.string(),
  status: z.string(),
  error: z.string().optional(),
  error_description: z.string().optional(),
});

export const providerDeletedResponse = z.object({ provider_id: z.string(), deleted: z.literal(true) });

const _deployment: SameShape<z.output<typeof deploymentResponse>, ReturnType<typeof deploymentJson>> = true;
const _revision: SameShape<z.output<typeof revisionResponse>, ReturnType<typeof revisionJson>> = true;
const _logs: SameShape<z.output<typeof revisionLogsResponse>, RevisionLogsJson> = true;
const _provider: SameShape<z.output<typeof providerResponse>, ReturnType<typeof providerJson>> = true;
const _authenticate: SameShape<z.output<typeof authenticateResponse>, AuthenticateResult> = true;
const _wait: SameShape<z.output<typeof waitResponse>, WaitResult> = true;
