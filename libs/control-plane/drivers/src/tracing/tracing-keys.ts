import { randomUUID } from 'node:crypto';
import { signIdentity } from '@platform/identity';

/** A credential the tracing service accepts, minted for one deployment. */
export interface TracingKey {
  id: string;
  key: string;
}

export interface TracingKeyOwner {
  tenantId: string;
  organizationId: string;
}

/** Mints and revokes the API keys deployments send traces with. */
export interface TracingKeys {
  mint(owner: TracingKeyOwner, description: string): Promise<TracingKey>;
  revoke(owner: TracingKeyOwner, id: string): Promise<void>;
}

/**
 * Keys minted by the gateway (which owns API keys) through its internal endpoint `/internal/v1/service-keys`,
 * authenticated with the platform's internal signature: a workspace-bound member key, valid for the tracing API
 * behind the gateway (`LANGSMITH_ENDPOINT` = `{gateway}/api/v1`).
 */
export class GatewayTracingKeys implements TracingKeys {
  constructor(private readonly options: { gatewayUrl: string; internalSecret: string; timeoutMs?: number }) {}

  async mint(owner: TracingKeyOwner, description: string): Promise<TracingKey> {
    const res = await this.call('POST', '/internal/v1/service-keys', owner, { description });
    if (res.status !== 201) throw new Error(`gateway refused to mint a tracing key: ${res.status} ${await res.text()}`);
    const body = (await res.json()) as { id: string; key: string };
    return { id: body.id, key: body.key };
  }

  async revoke(owner: TracingKeyOwner, id: string): Promise<void> {
    const res = await this.call('DELETE', `/internal/v1/service-keys/${id}`, owner);
    if (res.status !== 204 && res.status !== 404) throw new Error(`gateway refused to revoke tracing key ${id}: ${res.status}`);
  }

  private call(method: string, pathname: string, owner: TracingKeyOwner, body?: unknown): Promise<Response> {
    const requestId = randomUUID();
    const identity = { tenantId: owner.tenantId, organizationId: owner.organizationId, subject: 'control-plane' };
    return fetch(new URL(pathname, this.options.gatewayUrl), {
      method,
      headers: {
        'content-type': 'application/json',
        'x-request-id': requestId,
        ...signIdentity(this.options.internalSecret, identity, requestId),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(this.options.timeoutMs ?? 10_000),
    });
  }
}
