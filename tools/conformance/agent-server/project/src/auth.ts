// Custom auth: two users by bearer token, each seeing only what they own (`owner` stamped into metadata and used as
// a filter). Requests without a token run as `anonymous`, unfiltered, so the harness's other calls are unaffected.
import { Auth, HTTPException } from '@langchain/langgraph-sdk/auth';

const TOKENS: Record<string, string> = { 'token-alice': 'alice', 'token-bob': 'bob' };

export const auth = new Auth()
  .authenticate((request: Request) => {
    const header = request.headers.get('authorization');
    if (!header) return { identity: 'anonymous', permissions: [] };
    const identity = TOKENS[header.replace(/^Bearer\s+/i, '')];
    if (!identity) throw new HTTPException(401, { message: 'Invalid token' });
    return { identity, permissions: ['threads:write', 'store:write'] };
  })
  .on('*', ({ user, value }) => {
    if (user.identity === 'anonymous') return;
    if (typeof value === 'object' && value !== null && 'metadata' in value) {
      const target = value as { metadata?: Record<string, unknown> | null };
      target.metadata = { ...(target.metadata ?? {}), owner: user.identity };
    }
    return { owner: user.identity };
  })
  // Bob may not delete threads at all.
  .on('threads:delete', ({ user }) => {
    if (user.identity === 'anonymous') return;
    if (user.identity === 'bob') return false;
    return { owner: user.identity };
  })
  .on('store', ({ user, value }) => {
    if (user.identity === 'anonymous') return;
    const namespace = (value as { namespace?: string[] }).namespace ?? [];
    if (namespace[0] !== user.identity) throw new HTTPException(403, { message: 'Not your namespace' });
  });
