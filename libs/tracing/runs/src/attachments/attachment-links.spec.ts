import { NotAllowedError } from '@platform/errors';
import { AttachmentLinks } from './attachment-links';

describe('AttachmentLinks', () => {
  let clock = Date.parse('2024-05-01T12:00:00Z');
  const links = new AttachmentLinks({ secret: 'one-secret', ttlSeconds: 60, now: () => clock });
  const claims = { tenantId: 't-1', runId: 'r-1', name: 'photo.png' };

  it('signs a link to one attachment that verifies until it expires', () => {
    const url = links.url('https://gw.example.com', claims);
    expect(url).toMatch(/^https:\/\/gw\.example\.com\/api\/v1\/public\/download\?jwt=[\w-]+\.[\w-]+\.[\w-]+$/);
    const token = new URL(url).searchParams.get('jwt') as string;
    expect(links.verify(token)).toEqual(claims);
    clock += 59_000;
    expect(links.verify(token)).toEqual(claims);
    clock += 1_000;
    expect(() => links.verify(token)).toThrow(new NotAllowedError('Download link expired'));
  });

  it('refuses a token that was changed, signed with another secret, or is not a token', () => {
    const token = links.sign(claims);
    const [header, payload, signature] = token.split('.');
    const forged = Buffer.from(JSON.stringify({ tid: 't-2', rid: 'r-1', name: 'photo.png', exp: 9_999_999_999 })).toString('base64url');
    const other = new AttachmentLinks({ secret: 'another-secret', ttlSeconds: 60, now: () => clock });
    const noneAlg = Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url');
    for (const bad of [`${header}.${forged}.${signature}`, other.sign(claims), `${noneAlg}.${payload}.`, `${header}.${payload}`, 'x', `${token}.x`]) {
      expect(() => links.verify(bad)).toThrow(new NotAllowedError('Invalid download link'));
    }
  });
});
