import { Code, Paper, ScrollArea, Stack, Tabs, Text } from '@mantine/core';
import type { Client, Message, ThreadState } from '@langchain/langgraph-sdk';
import { useStream } from '@langchain/langgraph-sdk/react';
import { useQueryClient } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { JsonView } from '../components/json-view';
import { ErrorState } from '../components/states';
import { HistoryView } from './history-view';
import { InterruptPanel } from './interrupt-panel';
import { MessagesView } from './messages-view';
import { RunInput, type RunRequest } from './run-input';

type AgentState = { messages: Message[] } & Record<string, unknown>;

interface NodeUpdate {
  at: string;
  nodes: string[];
  data: unknown;
}

// Messages token by token, each node's update, and the state after each step.
const STREAM_MODE = ['values', 'messages-tuple', 'updates'] as const;

/**
 * One thread in the studio, on the SDK's `useStream`: the conversation streaming live, node updates, the thread's
 * state and its checkpoints (fork from one), breakpoints and interrupts, cancel.
 */
export function ThreadWorkspace({
  client,
  assistantId,
  threadId,
  nodes,
  onThreadId,
  onActiveNodes,
}: {
  client: Client;
  assistantId: string;
  threadId: string | null;
  nodes: string[];
  onThreadId: (id: string) => void;
  onActiveNodes: (nodes: string[]) => void;
}) {
  const [updates, setUpdates] = useState<NodeUpdate[]>([]);
  const runId = useRef<string | undefined>(undefined);
  const [cancelError, setCancelError] = useState<unknown>();
  const queries = useQueryClient();
  const stream = useStream<AgentState>({
    client,
    assistantId,
    threadId,
    onThreadId,
    messagesKey: 'messages',
    fetchStateHistory: true,
    onCreated: (run) => {
      runId.current = run.run_id;
      setUpdates([]);
    },
    onUpdateEvent: (data) => {
      const nodes = Object.keys((data ?? {}) as Record<string, unknown>);
      onActiveNodes(nodes);
      setUpdates((previous) => [...previous, { at: new Date().toLocaleTimeString(), nodes, data }]);
    },
    onFinish: () => {
      onActiveNodes([]);
      void queries.invalidateQueries({ queryKey: ['threads'] });
    },
  });

  // The SDK keeps the history oldest first: the thread's head is the last checkpoint.
  const head = stream.history.at(-1) as ThreadState<AgentState> | undefined;
  const paused = !stream.isLoading && head && head.next.length > 0 ? head : undefined;
  const options = (interruptBefore: string[] = []) => ({ streamMode: [...STREAM_MODE], ...(interruptBefore.length ? { interruptBefore } : {}) });

  const run = ({ input, interruptBefore }: RunRequest) => void stream.submit(input as Partial<AgentState>, options(interruptBefore));
  const cancel = async () => {
    setCancelError(undefined);
    const [thread, run] = [threadId, runId.current];
    await stream.stop();
    // Stopping the stream leaves the run going on the server: cancel it there too.
    if (thread && run) await client.runs.cancel(thread, run).catch((err: unknown) => setCancelError(err));
  };

  return (
    <Stack>
      {stream.error ? <ErrorState error={stream.error} title="The run failed" /> : null}
      {cancelError ? <ErrorState error={cancelError} title="Cancel failed" /> : null}
      <Tabs defaultValue="chat" keepMounted={false}>
        <Tabs.List>
          <Tabs.Tab value="chat">Chat</Tabs.Tab>
          <Tabs.Tab value="updates">Node updates ({updates.length})</Tabs.Tab>
          <Tabs.Tab value="state">State</Tabs.Tab>
          <Tabs.Tab value="history">History ({stream.history.length})</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="chat" pt="sm">
          <Stack>
            {stream.isThreadLoading ? <Text c="dimmed">Loading the thread…</Text> : <MessagesView messages={stream.messages} />}
            {paused && (
              <InterruptPanel
                state={paused}
                busy={stream.isLoading}
                onContinue={() => void stream.submit(null, options())}
                onResume={(value) => void stream.submit(null, { ...options(), command: { resume: value } })}
              />
            )}
          </Stack>
        </Tabs.Panel>
        <Tabs.Panel value="updates" pt="sm">
          {updates.length === 0 ? (
            <Text c="dimmed">Node updates of the current run appear here as they stream.</Text>
          ) : (
            <ScrollArea.Autosize mah={420}>
              <Stack gap="xs" data-testid="node-updates">
                {updates.map((u, i) => (
                  <Paper key={i} withBorder p="xs">
                    <Text size="xs" c="dimmed">
                      {u.at} · <Code>{u.nodes.join(', ')}</Code>
                    </Text>
                    <JsonView value={u.data} maxHeight={200} />
                  </Paper>
                ))}
              </Stack>
            </ScrollArea.Autosize>
          )}
        </Tabs.Panel>
        <Tabs.Panel value="state" pt="sm">
          <JsonView value={stream.values} maxHeight={480} label="Thread state" />
        </Tabs.Panel>
        <Tabs.Panel value="history" pt="sm">
          <HistoryView
            history={[...stream.history].reverse() as ThreadState[]}
            busy={stream.isLoading}
            onFork={(state, input) => void stream.submit((input ?? null) as Partial<AgentState> | null, { ...options(), checkpoint: state.checkpoint })}
          />
        </Tabs.Panel>
      </Tabs>
      <RunInput nodes={nodes} busy={stream.isLoading} onRun={run} onCancel={() => void cancel()} />
    </Stack>
  );
}
