import { Anchor, Button, Code, Group, Paper, Progress, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useParams } from 'react-router';
import { exportsApi, isExportDone } from '../api/exports.api';
import type { BulkExport, ExportRun } from '../api/types';
import { PageHeader } from '../components/page-header';
import { Empty, ErrorState, QueryView } from '../components/states';
import { StatusBadge } from '../components/status-badge';
import { formatTime } from '../components/time';
import { ExportRunsTable } from './export-runs-table';

function Summary({ exp, runs }: { exp: BulkExport; runs: ExportRun[] }) {
  const finished = runs.filter((r) => isExportDone(r.status)).length;
  const rows = runs.reduce((sum, r) => sum + r.metadata.result.rows_written, 0);
  const files = runs.reduce((sum, r) => sum + r.metadata.result.exported_files.length, 0);
  return (
    <Paper withBorder p="md">
      <Stack gap="sm">
        <Progress value={runs.length ? (finished / runs.length) * 100 : isExportDone(exp.status) ? 100 : 0} color={exp.status === 'Failed' ? 'red' : exp.status === 'Completed' ? 'green' : 'blue'} size="lg" aria-label="Export progress" />
        <SimpleGrid cols={{ base: 2, sm: 4 }}>
          <div>
            <Text size="xs" c="dimmed">Partitions done</Text>
            <Text data-testid="partitions-done">{finished} / {runs.length}</Text>
          </div>
          <div>
            <Text size="xs" c="dimmed">Rows written</Text>
            <Text data-testid="rows-written">{rows}</Text>
          </div>
          <div>
            <Text size="xs" c="dimmed">Files</Text>
            <Text>{files}</Text>
          </div>
          <div>
            <Text size="xs" c="dimmed">Window</Text>
            <Text size="sm">{formatTime(exp.start_time)} → {exp.end_time ? formatTime(exp.end_time) : `every ${exp.interval_hours} h`}</Text>
          </div>
        </SimpleGrid>
        {exp.filter && <Text size="sm">Filter: <Code>{exp.filter}</Code></Text>}
        <Text size="sm">Fields: {exp.export_fields?.join(', ') ?? 'all'}</Text>
        {exp.error && <ErrorState error={exp.error} title="The export failed" />}
      </Stack>
    </Paper>
  );
}

/** The exports a schedule spawned, grouped from their runs. */
function Spawned({ scheduleId }: { scheduleId: string }) {
  const runs = useQuery({ queryKey: ['spawned', scheduleId], queryFn: () => exportsApi.spawnedRuns(scheduleId), refetchInterval: 5_000 });
  return (
    <Paper withBorder p="md">
      <Title order={3} size="h5" mb="sm">Spawned exports</Title>
      <QueryView query={runs}>
        {(list) => {
          const byExport = [...new Set(list.map((r) => r.bulk_export_id))];
          if (!byExport.length) return <Empty>None yet: the first is spawned once its window has passed.</Empty>;
          return (
            <Stack>
              {byExport.map((id) => (
                <Stack key={id} gap={4}>
                  <Anchor component={Link} to={`/console/exports/${id}`} ff="monospace" size="sm">{id}</Anchor>
                  <ExportRunsTable runs={list.filter((r) => r.bulk_export_id === id)} />
                </Stack>
              ))}
            </Stack>
          );
        }}
      </QueryView>
    </Paper>
  );
}

export function ExportPage() {
  const { exportId = '' } = useParams();
  const client = useQueryClient();
  const exp = useQuery({ queryKey: ['export', exportId], queryFn: () => exportsApi.get(exportId), refetchInterval: (q) => (q.state.data && isExportDone(q.state.data.status) ? false : 1_000) });
  // Polled until the export and each of its runs are final (a run's rows are counted when it ends).
  const runs = useQuery({
    queryKey: ['export-runs', exportId],
    queryFn: () => exportsApi.runs(exportId),
    refetchInterval: (q) => (exp.data && isExportDone(exp.data.status) && q.state.data?.every((r) => isExportDone(r.status)) ? false : 1_000),
  });
  const cancel = useMutation({
    mutationFn: () => exportsApi.cancel(exportId),
    onSuccess: (updated) => client.setQueryData(['export', exportId], updated),
  });
  return (
    <QueryView query={exp}>
      {(e) => (
        <Stack>
          <PageHeader
            title={<Group gap="sm">Export <Code>{e.id.slice(0, 8)}</Code> <StatusBadge status={e.status} /></Group>}
            description={<Anchor component={Link} to="/console/exports" size="sm">← All exports</Anchor>}
            actions={!isExportDone(e.status) && <Button color="red" variant="light" onClick={() => cancel.mutate()} loading={cancel.isPending}>Cancel export</Button>}
          />
          {cancel.error && <ErrorState error={cancel.error} title="Not cancelled" />}
          <QueryView query={runs}>{(list) => <Summary exp={e} runs={list} />}</QueryView>
          <Paper withBorder p="md">
            <Title order={3} size="h5" mb="sm">Runs (one per day of the window)</Title>
            <QueryView query={runs}>{(list) => (list.length ? <ExportRunsTable runs={list} /> : <Empty>No runs yet.</Empty>)}</QueryView>
          </Paper>
          {e.interval_hours && <Spawned scheduleId={e.id} />}
        </Stack>
      )}
    </QueryView>
  );
}
