import { Anchor, Grid, Paper, Select, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { Link, useParams, useSearchParams } from 'react-router';
import { agentClient } from '../api/agent-client';
import { deploymentsApi } from '../api/deployments.api';
import { PageHeader } from '../components/page-header';
import { Empty, ErrorState, Loading, QueryView } from '../components/states';
import { GraphView } from './graph-view';
import { ThreadWorkspace } from './thread-workspace';
import { ThreadsPanel } from './threads-panel';

/** What LangGraph Studio gives, for one deployment: assistants and their graph, threads, runs streaming live. */
export function StudioPage() {
  const { deploymentId = '' } = useParams();
  const [params, setParams] = useSearchParams();
  const client = useMemo(() => agentClient(deploymentId), [deploymentId]);
  const deployment = useQuery({ queryKey: ['deployment', deploymentId], queryFn: () => deploymentsApi.get(deploymentId) });
  const assistants = useQuery({ queryKey: ['assistants', deploymentId], queryFn: () => client.assistants.search({ limit: 100 }) });
  const assistantId = params.get('assistant') ?? assistants.data?.[0]?.assistant_id ?? null;
  const threadId = params.get('thread');
  const graph = useQuery({
    queryKey: ['graph', deploymentId, assistantId],
    queryFn: () => client.assistants.getGraph(assistantId as string),
    enabled: Boolean(assistantId),
  });
  const [activeNodes, setActiveNodes] = useState<string[]>([]);
  // A thread picked in the list opens afresh; the thread a first run creates keeps the stream going.
  const [opened, setOpened] = useState(0);
  const set = (key: string, value: string | null) =>
    setParams(
      (p) => {
        const next = new URLSearchParams(p);
        if (value) next.set(key, value);
        else next.delete(key);
        return next;
      },
      { replace: true },
    );
  const nodes = (graph.data?.nodes ?? []).map((n) => String(n.id)).filter((id) => !id.startsWith('__'));

  return (
    <Stack>
      <PageHeader
        title={`Studio · ${deployment.data?.name ?? ''}`}
        description={
          <Anchor component={Link} to={`/console/deployments/${deploymentId}`} size="sm">
            ← Deployment details
          </Anchor>
        }
      />
      <QueryView query={assistants} loadingLabel="Loading assistants…">
        {(list) =>
          list.length === 0 ? (
            <Empty>This deployment has no assistants.</Empty>
          ) : (
            <Grid gap="md">
              <Grid.Col span={{ base: 12, lg: 4 }}>
                <Stack>
                  <Paper withBorder p="sm">
                    <Select
                      label="Assistant"
                      data={list.map((a) => ({ value: a.assistant_id, label: `${a.name} (${a.graph_id})` }))}
                      value={assistantId}
                      onChange={(id) => set('assistant', id)}
                      allowDeselect={false}
                      mb="sm"
                    />
                    {graph.error ? <ErrorState error={graph.error} title="No graph" /> : graph.data ? <GraphView graph={graph.data} active={activeNodes} /> : <Loading label="Drawing the graph…" />}
                    <Text size="xs" c="dimmed" mt={4}>
                      Dashed: conditional edges. Highlighted: the node that just ran.
                    </Text>
                  </Paper>
                  <Paper withBorder p="sm">
                    <ThreadsPanel
                      client={client}
                      deploymentId={deploymentId}
                      selected={threadId}
                      onSelect={(id) => {
                        set('thread', id);
                        setOpened((n) => n + 1);
                      }}
                    />
                  </Paper>
                </Stack>
              </Grid.Col>
              <Grid.Col span={{ base: 12, lg: 8 }}>
                <Paper withBorder p="sm">
                  {assistantId && (
                    <ThreadWorkspace
                      key={`${assistantId}/${opened}`}
                      client={client}
                      assistantId={assistantId}
                      threadId={threadId}
                      nodes={nodes}
                      onThreadId={(id) => set('thread', id)}
                      onActiveNodes={setActiveNodes}
                    />
                  )}
                </Paper>
              </Grid.Col>
            </Grid>
          )
        }
      </QueryView>
    </Stack>
  );
}
