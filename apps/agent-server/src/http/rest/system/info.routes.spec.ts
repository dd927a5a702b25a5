import express from 'express';
import request from 'supertest';
import { LANGGRAPH_VERSION } from '@platform/agent-server-graphs';
import { mountRoutes } from '@platform/openapi';
import { infoRoutes } from './info.routes';

describe('GET /info', () => {
  it('announces the flags and fields of LangGraph\'s JS API server, crons on', async () => {
    const app = express();
    mountRoutes(app, infoRoutes({ version: '1.2.3', deploymentId: 'dep-1', tracing: false }));
    const { body } = await request(app).get('/info').expect(200);
    expect(body).toEqual({
      version: '1.2.3',
      langgraph_js_version: LANGGRAPH_VERSION,
      context: 'js',
      deployment_id: 'dep-1',
      flags: { assistants: true, crons: true, langsmith: false, langsmith_tracing_replicas: true },
    });
    expect(LANGGRAPH_VERSION).toMatch(/^\d+\.\d+\.\d+/);
  });
});
