import { NotFoundError, UnavailableError } from '@platform/errors';
import { cachedResolver, type ResolveDeployment } from './deployment-resolver';

function counting(impl: ResolveDeployment) {
  const calls: string[] = [];
  const resolve: ResolveDeployment = async (id, tenant) => {
    calls.push(`${tenant}/${id}`);
    return impl(id, tenant);
  };
  return { calls, resolve };
}

const found: ResolveDeployment = async (deploymentId, tenantId) => ({ deploymentId, tenantId, upstreamUrl: `http://up/${deploymentId}` });

describe('cachedResolver', () => {
  it('caches per tenant and deployment until the ttl passes', async () => {
    let clock = 0;
    const { calls, resolve } = counting(found);
    const lookup = cachedResolver(resolve, { ttlMs: 100, now: () => clock });
    await lookup('d1', 't1');
    await lookup('d1', 't1');
    await lookup('d1', 't2');
    expect(calls).toEqual(['t1/d1', 't2/d1']);
    clock = 101;
    await lookup('d1', 't1');
    expect(calls).toHaveLength(3);
  });

  it('shares one lookup between concurrent misses', async () => {
    const { calls, resolve } = counting(found);
    const lookup = cachedResolver(resolve);
    const results = await Promise.all([lookup('d', 't'), lookup('d', 't'), lookup('d', 't')]);
    expect(calls).toHaveLength(1);
    expect(new Set(results.map((r) => r.upstreamUrl))).toEqual(new Set(['http://up/d']));
  });

  it('remembers not-found briefly, and never caches other failures', async () => {
    let clock = 0;
    const missing = counting(async () => {
      throw new NotFoundError('Deployment not found');
    });
    const lookup = cachedResolver(missing.resolve, { negativeTtlMs: 10, now: () => clock });
    await expect(lookup('x', 't')).rejects.toBeInstanceOf(NotFoundError);
    await expect(lookup('x', 't')).rejects.toBeInstanceOf(NotFoundError);
    expect(missing.calls).toHaveLength(1);
    clock = 11;
    await expect(lookup('x', 't')).rejects.toBeInstanceOf(NotFoundError);
    expect(missing.calls).toHaveLength(2);

    const down = counting(async () => {
      throw new UnavailableError('control plane down');
    });
    const lookupDown = cachedResolver(down.resolve);
    await expect(lookupDown('x', 't')).rejects.toBeInstanceOf(UnavailableError);
    await expect(lookupDown('x', 't')).rejects.toBeInstanceOf(UnavailableError);
    expect(down.calls).toHaveLength(2);
  });

  it('can forget an upstream', async () => {
    const { calls, resolve } = counting(found);
    const lookup = cachedResolver(resolve);
    await lookup('d', 't');
    lookup.invalidate('d', 't');
    await lookup('d', 't');
    expect(calls).toHaveLength(2);
  });
});
