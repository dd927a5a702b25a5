import { joinPathOf, nextReplica, ReplicaHealth, resumableRequest } from './resumable-request';

const T = '5b7c0e7e-1b1a-4b4f-9d4e-1b2c3d4e5f60';
const R = '1eae8ae2-0a4c-4b7e-8f5e-2c3d4e5f6071';

describe('resumableRequest', () => {
  it('resumes joins as they are and waits as joins; nothing else', () => {
    expect(resumableRequest('GET', `/threads/${T}/runs/${R}/join?cancel_on_disconnect=0`)).toEqual({
      kind: 'join',
      path: `/threads/${T}/runs/${R}/join?cancel_on_disconnect=0`,
    });
    expect(resumableRequest('POST', `/threads/${T}/runs/wait`)).toEqual({ kind: 'wait' });
    expect(resumableRequest('POST', '/runs/wait')).toEqual({ kind: 'wait' });
    for (const [method, path] of [
      ['POST', `/threads/${T}/runs/${R}/join`],
      ['GET', `/threads/${T}/runs/wait`],
      ['POST', `/threads/${T}/runs`],
      ['POST', `/threads/${T}/runs/stream`],
      ['GET', `/threads/${T}/runs/${R}/stream`],
      ['GET', `/threads/${T}/runs/${R}`],
      ['DELETE', `/threads/${T}/runs/${R}/join`],
    ]) {
      expect(resumableRequest(method, path)).toBeUndefined();
    }
  });
});

describe('joinPathOf', () => {
  it('joins the run a wait created, thread or stateless, keeping cancel on disconnect', () => {
    expect(joinPathOf({ location: `/threads/${T}/runs/${R}/stream`, 'content-location': `/runs/${R}` }, false)).toBe(`/threads/${T}/runs/${R}/join`);
    expect(joinPathOf({ 'content-location': `/threads/${T}/runs/${R}` }, true)).toBe(`/threads/${T}/runs/${R}/join?cancel_on_disconnect=true`);
    expect(joinPathOf({ 'content-location': `/runs/${R}` }, false)).toBeUndefined();
    expect(joinPathOf({}, false)).toBeUndefined();
  });
});

describe('nextReplica', () => {
  const deployment = { deploymentId: 'd', tenantId: 't', upstreamUrl: 'http://a:1', replicaUrls: ['http://a:1/', 'http://b:2'] };
  it('tries the upstream, then the other replicas, each once', () => {
    expect(nextReplica(deployment, new Set())).toBe('http://a:1');
    expect(nextReplica(deployment, new Set(['http://a:1']))).toBe('http://b:2');
    expect(nextReplica(deployment, new Set(['http://a:1', 'http://b:2']))).toBeUndefined();
    expect(nextReplica({ ...deployment, replicaUrls: undefined }, new Set(['http://a:1']))).toBeUndefined();
  });
});

describe('ReplicaHealth', () => {
  it('skips a replica that failed lately while another is left, and forgets it after a while', () => {
    let clock = 0;
    const health = new ReplicaHealth(1_000, () => clock);
    const deployment = { deploymentId: 'd', tenantId: 't', upstreamUrl: 'http://a:1', replicaUrls: ['http://b:2'] };
    health.markFailed('http://a:1/');
    expect(nextReplica(deployment, new Set(), health)).toBe('http://b:2');
    health.markFailed('http://b:2');
    expect(nextReplica(deployment, new Set(), health)).toBe('http://a:1');
    expect(nextReplica(deployment, new Set(['http://a:1']), health)).toBe('http://b:2');
    clock = 1_001;
    expect(health.isDown('http://a:1')).toBe(false);
    expect(nextReplica(deployment, new Set(), health)).toBe('http://a:1');
  });
});
