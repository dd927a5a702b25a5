import fs from 'node:fs';
import path from 'node:path';
import { Client as LangGraphClient } from '@langchain/langgraph-sdk';
import { Client as LangSmithClient, type Run } from 'langsmith';
import { freePort } from '@platform/http-server';
import { runCli, scratchProject, type CliProcess } from './cli.e2e.testing';

// Issue 31: `agent-platform up` said its project was traced, and no trace reached the platform's tracing service. The
// project's runs now read back with the langsmith SDK from the tracing project named after the project's folder.
describe('agent-platform up', () => {
  let project: ReturnType<typeof scratchProject>;
  let cli: CliProcess;

  beforeAll(() => {
    project = scratchProject();
    // mkdtemp's folder is 0700: deployments the control plane starts here run as users of their own, who must pass it.
    fs.chmodSync(project.dir, 0o711);
  });
  afterAll(async () => {
    const code = await cli?.stop();
    project?.remove();
    expect(code).toBe(0);
  });

  it("serves the folder's project as a deployment whose runs are traced to the project named after the folder", async () => {
    const port = await freePort('127.0.0.1');
    // From the project's folder with no flags, on the embedded databases, as a user would.
    cli = runCli(['up'], { cwd: project.dir, env: { GATEWAY_PORT: String(port), LOG_LEVEL: 'warn', DATABASE_URL: '', NATS_URL: '' } });
    // The first start builds the web console if it is missing and creates the embedded databases: minutes on a busy machine.
    const [, , name, apiUrl] = await cli.waitFor(/Your project \((.+)\), deployment '([^']+)': (http:\/\/\S+)/, 300_000);
    const workspaceId = (await cli.waitFor(/Workspace \(X-Tenant-Id\): (\S+)/))[1];
    const apiKey = (await cli.waitFor(/Admin API key \(X-Api-Key\): (\S+)/))[1];
    expect(name).toBe(path.basename(project.dir));
    expect(cli.output()).toContain(`traced to the tracing project '${name}'`);

    const agent = new LangGraphClient({ apiUrl, apiKey, defaultHeaders: { 'X-Tenant-Id': workspaceId } });
    const thread = await agent.threads.create();
    await agent.runs.wait(thread.thread_id, 'agent', { input: { messages: [{ role: 'user', content: 'What is 6 * 7?' }] } });

    const langsmith = new LangSmithClient({ apiUrl: `http://127.0.0.1:${port}/api/v1`, apiKey, workspaceId });
    const deadline = Date.now() + 30_000;
    let trace: Run[] = [];
    let root: Run | undefined;
    while (!root || trace.length < 2 || !trace.every((r) => r.end_time)) {
      if (Date.now() > deadline) throw new Error(`no finished trace in project ${name}`);
      await new Promise((resolve) => setTimeout(resolve, 300));
      try {
        root = undefined;
        for await (const run of langsmith.listRuns({ projectName: name, isRoot: true })) root = run;
        trace = [];
        if (root) for await (const run of langsmith.listRuns({ projectName: name, traceId: root.trace_id })) trace.push(run);
      } catch {
        // The project appears with the first trace.
      }
    }
    expect(root).toMatchObject({ run_type: 'chain', status: 'success' });
    expect(JSON.stringify(root.outputs)).toContain('42');
    const children = trace.filter((r) => r.id !== root!.id);
    expect(children.some((r) => r.parent_run_id === root!.id)).toBe(true);
    expect(children.map((r) => r.run_type)).toEqual(expect.arrayContaining(['llm', 'tool']));
  }, 400_000);
});
