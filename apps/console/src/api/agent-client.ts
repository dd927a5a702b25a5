import { Client } from '@langchain/langgraph-sdk';
import { csrfToken } from './http';

/**
 * The official LangGraph SDK client for one deployment, through the gateway (`/deployments/{id}`) with the browser
 * session: no API key (`null` keeps the SDK from looking for one), the CSRF token on every request.
 */
export function agentClient(deploymentId: string): Client {
  return new Client({
    apiUrl: `${window.location.origin}/deployments/${encodeURIComponent(deploymentId)}`,
    apiKey: null,
    defaultHeaders: { 'x-csrf-token': csrfToken() },
    callerOptions: { maxRetries: 1 },
  });
}

/** The `/docs` page of a deployment's Agent Server (Swagger UI), opened with the session. */
export const deploymentDocsUrl = (deploymentId: string) => `/deployments/${encodeURIComponent(deploymentId)}/docs/`;
