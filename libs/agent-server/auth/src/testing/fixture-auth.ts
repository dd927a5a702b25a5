// Modules langgraph.json `auth.path` may name, for load-deployment-auth.spec.ts.
import { Auth } from '@langchain/langgraph-sdk/auth';

export const auth = new Auth().authenticate(() => 'fixture-user');

export const notAuth = { authenticate: () => 'fixture-user' };

export default auth;
