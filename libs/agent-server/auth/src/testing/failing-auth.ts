// An auth module that fails at import, as a misconfigured deployment's would (load-deployment-auth.spec.ts).
import { Auth } from '@langchain/langgraph-sdk/auth';

const secret = process.env['FIXTURE_AUTH_SECRET_THAT_IS_NEVER_SET'];
if (!secret) throw new Error('AUTH_SECRET is not set');

export const auth = new Auth();
