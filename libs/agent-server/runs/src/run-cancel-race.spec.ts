import { AIMessage } from '@langchain/core/messages';
import type { RunnableConfig } from '@langchain/core/runnables';
import { MessagesAnnotation, StateGraph } from '@langchain/langgraph';
import type { ChannelVersions, Checkpoint, CheckpointMetadata } from '@langchain/langgraph-checkpoint';
import { createAssistantRepository, syncSystemAssistants } from '@platform/agent-server-assistants';
import { DelegatingCheckpointSaver, PrismaCheckpointSaver } from '@platform/agent-server-checkpointer';
import { createGraphRegistry, type GraphExport } from '@platform/agent-server-graphs';
import { runCreateSchema } from '@platform/agent-server-run-records';
import { openRunsTestDatabase } from '@platform/agent-server-run-records/testing';
import { silentLogger } from '@platform/logging';
import { createRunService, type RunService } from './runs.service';
import { TEST_RUN_SETTINGS } from './runs.testing';

jest.setTimeout(120_000);

/**
 * A checkpointer that cancels the run (`interrupt`) the moment the graph's final checkpoint is stored: the cancel
 * arrives after the run did all its work, before its stream ended (what a user saw as a finished run reported
 * `interrupted`).
 */
class CancelAfterCheckpoint extends DelegatingCheckpointSaver {
  cancel: (threadId: string, runId: string) => Promise<void> = async () => undefined;
  /** The step whose checkpoint the cancel follows: 1 is the one-node graph's last, after `agent` ran (input at -1). */
  step = 1;

  override async put(config: RunnableConfig, checkpoint: Checkpoint, metadata: CheckpointMetadata, versions: ChannelVersions): Promise<RunnableConfig> {
    const saved = await this.saver.put(config, checkpoint, metadata, versions);
    const runId = (metadata as { run_id?: string }).run_id;
    if (metadata.step === this.step && runId) await this.cancel(String(config.configurable?.['thread_id']), runId);
    return saved;
  }
}

function oneNodeGraph() {
  return new StateGraph(MessagesAnnotation)
    .addNode('agent', async () => ({ messages: [new AIMessage('the whole answer')] }))
    .addEdge('__start__', 'agent')
    .addEdge('agent', '__end__')
    .compile();
}

describe('a run cancelled after its graph finished', () => {
  let runs: RunService;
  let checkpointer: CancelAfterCheckpoint;
  let close: () => Promise<void>;

  beforeAll(async () => {
    const database = await openRunsTestDatabase();
    const { prisma, sql, notifications } = database.db;
    checkpointer = new CancelAfterCheckpoint(new PrismaCheckpointSaver(prisma));
    const registry = createGraphRegistry({ graphs: { finisher: { source: oneNodeGraph() as unknown as GraphExport } }, checkpointer });
    const assistants = createAssistantRepository(prisma);
    await syncSystemAssistants(assistants, registry);
    runs = createRunService({ sql, notifications, registry, checkpointer, assistants, logger: silentLogger, settings: TEST_RUN_SETTINGS });
    checkpointer.cancel = (threadId, runId) => runs.cancel(threadId, runId, { action: 'interrupt' });
    await runs.start();
    close = async () => {
      await runs.stop();
      await database.close();
    };
  });
  afterAll(() => close?.());

  const start = () =>
    runs.create({ threadId: null }, runCreateSchema.parse({ assistant_id: 'finisher', input: { messages: [{ role: 'user', content: 'hi' }] }, on_completion: 'keep' }));

  it('ends success with its answer, as the thread holds it, not interrupted', async () => {
    checkpointer.step = 1;
    const run = await start();
    const end = await runs.waitForEnd(run.run_id);
    expect(end?.status).toBe('success');
    const output = JSON.parse(await runs.output(run)) as { messages: { content: string }[] };
    expect(output.messages.map((m) => m.content)).toEqual(['hi', 'the whole answer']);
    expect((await runs.getById(run.run_id)).status).toBe('success');
  });

  it('cancelled before its graph finished, ends interrupted', async () => {
    checkpointer.step = -1;
    const run = await start();
    expect((await runs.waitForEnd(run.run_id))?.status).toBe('interrupted');
  });
});
