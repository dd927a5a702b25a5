import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { RunnableLambda } from '@langchain/core/runnables';
import type { RunRecord } from '@platform/agent-server-run-records';
import { createRunTracing } from './run-tracing';

/** A LangSmith-compatible endpoint that keeps every trace upload's body as text. */
async function traceSink(): Promise<{ url: string; bodies: string[]; close(): Promise<void> }> {
  const bodies: string[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      if (req.method === 'POST') bodies.push(Buffer.concat(chunks).toString('utf8'));
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, bodies, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

/** The runs created in multipart trace uploads: project, input and reference example of each. */
function tracedRuns(bodies: string[]): { project: string; input: unknown; example?: string }[] {
  const runs = new Map<string, { project: string; input: unknown; example?: string }>();
  for (const body of bodies) {
    for (const part of body.split(/-{6}LangSmithFormBoundary\w+/)) {
      const name = /name="post\.([^".]+)(\.inputs)?"/.exec(part);
      const json = part.slice(part.indexOf('\r\n\r\n') + 4).trim();
      if (!name || !json) continue;
      const value = JSON.parse(json) as Record<string, unknown>;
      const run = runs.get(name[1]!) ?? { project: '', input: undefined };
      if (name[2]) run.input = value['input'];
      else Object.assign(run, { project: value['session_name'], example: value['reference_example_id'] });
      runs.set(name[1]!, run);
    }
  }
  return [...runs.values()];
}

const runWith = (configurable: Record<string, unknown>) => ({ kwargs: { config: { configurable } } }) as unknown as RunRecord;

describe('run tracing', () => {
  it("traces to the deployment's project, and a run's own project gets a replica tied to its example", async () => {
    const sink = await traceSink();
    try {
      const tracing = createRunTracing({ endpoint: sink.url, project: 'deployment-project' });
      const step = RunnableLambda.from((text: string) => text.toUpperCase()).withConfig({ runName: 'shout' });
      await step.invoke('plain', { callbacks: tracing.callbacks(runWith({})) });
      await step.invoke('replicated', { callbacks: tracing.callbacks(runWith({ langsmith_project: 'eval-project', langsmith_example_id: '6f1e2d3c-4b5a-4c6d-8e7f-1a2b3c4d5e6f' })) });
      await tracing.flush();
      const runs = tracedRuns(sink.bodies);
      // The plain run goes to the deployment's project only; the other to both, the replica tied to its example.
      expect(runs.filter((r) => r.input === 'plain').map((r) => r.project)).toEqual(['deployment-project']);
      const replicated = runs.filter((r) => r.input === 'replicated');
      expect(replicated.map((r) => r.project).sort()).toEqual(['deployment-project', 'eval-project']);
      expect(replicated.find((r) => r.project === 'eval-project')?.example).toBe('6f1e2d3c-4b5a-4c6d-8e7f-1a2b3c4d5e6f');
    } finally {
      await sink.close();
    }
  });
});
