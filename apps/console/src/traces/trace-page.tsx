import { Alert, Anchor, Badge, Grid, Group, Paper, SimpleGrid, Stack, Text, Title, UnstyledButton } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link, useParams, useSearchParams } from 'react-router';
import { traceRuns } from '../api/tracing.api';
import type { TraceRun } from '../api/types';
import { JsonView } from '../components/json-view';
import { PageHeader } from '../components/page-header';
import { Empty, QueryView } from '../components/states';
import { StatusBadge } from '../components/status-badge';
import { formatTime, latency } from '../components/time';
import { runTree } from './run-tree';


function Fact({ label, value }: { label: string; value: string | number | null | undefined }) {
  return (
    <div>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text size="sm">{value ?? '—'}</Text>
    </div>
  );
}

/** One run of the trace: inputs, outputs, error, latency, tokens, cost and its feedback. */
function RunDetails({ run }: { run: TraceRun }) {
  const feedback = (run.feedback_stats ?? {}) as Record<string, { n?: number; avg?: number | null }>;
  return (
    <Stack data-testid="run-details">
      <Group gap="sm">
        <Title order={3} size="h4">
          {run.name}
        </Title>
        <Badge variant="outline">{run.run_type}</Badge>
        <StatusBadge status={run.status ?? (run.error ? 'error' : 'success')} />
      </Group>
      <SimpleGrid cols={{ base: 2, sm: 3, lg: 6 }} spacing="xs">
        <Fact label="Latency" value={latency(run.start_time, run.end_time)} />
        <Fact label="Started" value={formatTime(run.start_time)} />
        <Fact label="Prompt tokens" value={run.prompt_tokens} />
        <Fact label="Completion tokens" value={run.completion_tokens} />
        <Fact label="Total tokens" value={run.total_tokens} />
        <Fact label="Cost" value={run.total_cost ?? null} />
      </SimpleGrid>
      {run.error && (
        <Alert color="red" title="Error">
          <Text size="sm" style={{ whiteSpace: 'pre-wrap' }}>
            {run.error}
          </Text>
        </Alert>
      )}
      <Text fw={500}>Inputs</Text>
      <JsonView value={run.inputs} label="Inputs" />
      <Text fw={500}>Outputs</Text>
      <JsonView value={run.outputs} label="Outputs" />
      <Text fw={500}>Feedback</Text>
      {Object.keys(feedback).length === 0 ? (
        <Text size="sm" c="dimmed">
          No feedback on this run.
        </Text>
      ) : (
        <Group gap="xs" data-testid="feedback">
          {Object.entries(feedback).map(([key, stat]) => (
            <Badge key={key} variant="light" size="lg">
              {key}: {stat.avg ?? '—'} ({stat.n ?? 0})
            </Badge>
          ))}
        </Group>
      )}
    </Stack>
  );
}

/** A trace as a tree of runs; the picked run's details beside it. */
export function TracePage() {
  const { projectId = '', traceId = '' } = useParams();
  const [params, setParams] = useSearchParams();
  const runs = useQuery({ queryKey: ['trace', traceId], queryFn: () => traceRuns(projectId, traceId), refetchInterval: 5_000 });
  return (
    <Stack>
      <PageHeader
        title="Trace"
        description={
          <Anchor component={Link} to={`/console/traces/${projectId}`} size="sm">
            ← Runs of the project
          </Anchor>
        }
      />
      <QueryView query={runs}>
        {(list) => {
          if (list.length === 0) return <Empty>This trace has no runs (yet).</Empty>;
          const rows = runTree(list);
          const picked = list.find((r) => r.id === params.get('run')) ?? list.find((r) => r.id === traceId) ?? rows[0].run;
          return (
            <Grid>
              <Grid.Col span={{ base: 12, md: 4 }}>
                <Paper withBorder p="xs">
                  <Stack gap={2} role="tree" aria-label="Runs of the trace">
                    {rows.map(({ run, depth }) => (
                      <UnstyledButton
                        key={run.id}
                        role="treeitem"
                        aria-level={depth + 1}
                        aria-selected={run.id === picked.id}
                        onClick={() => setParams({ run: run.id }, { replace: true })}
                        p={4}
                        pl={8 + depth * 16}
                        style={{ borderRadius: 4, background: run.id === picked.id ? 'var(--mantine-color-blue-light)' : undefined }}
                      >
                        <Group gap={6} wrap="nowrap">
                          <Text size="sm" truncate>
                            {run.name}
                          </Text>
                          <Text size="xs" c="dimmed">
                            {run.run_type} · {latency(run.start_time, run.end_time)}
                          </Text>
                        </Group>
                      </UnstyledButton>
                    ))}
                  </Stack>
                </Paper>
              </Grid.Col>
              <Grid.Col span={{ base: 12, md: 8 }}>
                <Paper withBorder p="md">
                  <RunDetails run={picked} />
                </Paper>
              </Grid.Col>
            </Grid>
          );
        }}
      </QueryView>
    </Stack>
  );
}
