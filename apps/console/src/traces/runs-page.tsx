import { Anchor, Button, Checkbox, Group, SegmentedControl, Stack, Table, Text, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Link, useParams } from 'react-router';
import { ApiError } from '../api/http';
import { queryRuns, readProject, validateFilter } from '../api/tracing.api';
import { PageHeader } from '../components/page-header';
import { Empty, ErrorState, Loading } from '../components/states';
import { StatusBadge } from '../components/status-badge';
import { formatTime, latency } from '../components/time';

const RANGES = [
  { value: '1h', label: 'Last hour', ms: 3600_000 },
  { value: '24h', label: '24 hours', ms: 24 * 3600_000 },
  { value: '7d', label: '7 days', ms: 7 * 24 * 3600_000 },
  { value: 'all', label: 'All', ms: 0 },
];
const PAGE_SIZE = 25;

/** The runs of a project: the filter language (its parser's error under the box), a time range, pages by cursor. */
export function RunsPage() {
  const { projectId = '' } = useParams();
  const project = useQuery({ queryKey: ['project', projectId], queryFn: () => readProject(projectId) });
  const [draft, setDraft] = useState('');
  const [filter, setFilter] = useState('');
  const [range, setRange] = useState('24h');
  const [rootsOnly, setRootsOnly] = useState(true);
  // Cursors of the pages before the current one (the API hands out only `next`).
  const [cursors, setCursors] = useState<Array<string | null>>([null]);
  const cursor = cursors[cursors.length - 1];
  const [debouncedDraft] = useDebouncedValue(draft, 400);
  const check = useQuery({
    queryKey: ['filter-check', debouncedDraft],
    queryFn: () => validateFilter(debouncedDraft),
    enabled: debouncedDraft.trim() !== '',
    retry: false,
  });
  const startTime = RANGES.find((r) => r.value === range)?.ms ? new Date(Date.now() - (RANGES.find((r) => r.value === range)?.ms as number)).toISOString() : undefined;
  const runs = useQuery({
    queryKey: ['runs', projectId, filter, range, rootsOnly, cursor],
    queryFn: () => queryRuns({ session: [projectId], filter: filter || null, is_root: rootsOnly || null, start_time: startTime ?? null, limit: PAGE_SIZE, cursor }),
    placeholderData: keepPreviousData,
    retry: false,
  });
  const restart = () => setCursors([null]);
  const apply = (event: FormEvent) => {
    event.preventDefault();
    setFilter(draft.trim());
    restart();
  };
  const filterProblem = (check.error instanceof ApiError && draft.trim() === debouncedDraft ? check.error.message : undefined) ?? (runs.error instanceof ApiError && runs.error.status === 400 ? runs.error.message : undefined);

  return (
    <Stack>
      <PageHeader
        title={project.data?.name ?? 'Runs'}
        description={
          <Anchor component={Link} to="/console/traces" size="sm">
            ← All projects
          </Anchor>
        }
      />
      <form onSubmit={apply}>
        <Group align="flex-start" wrap="wrap">
          <TextInput
            label="Filter"
            placeholder='e.g. and(eq(run_type, "llm"), gt(latency, 1))'
            value={draft}
            onChange={(e) => setDraft(e.currentTarget.value)}
            error={filterProblem}
            style={{ flex: 1, minWidth: 260 }}
            styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
          />
          <Button type="submit" mt={25}>
            Apply
          </Button>
        </Group>
      </form>
      <Group wrap="wrap">
        <SegmentedControl size="xs" data={RANGES.map(({ value, label }) => ({ value, label }))} value={range} onChange={(v) => { setRange(v); restart(); }} aria-label="Time range" />
        <Checkbox label="Root runs only" checked={rootsOnly} onChange={(e) => { setRootsOnly(e.currentTarget.checked); restart(); }} />
      </Group>
      {runs.error && !(runs.error instanceof ApiError && runs.error.status === 400) ? (
        <ErrorState error={runs.error} />
      ) : runs.isPending ? (
        <Loading />
      ) : !runs.data || runs.data.runs.length === 0 ? (
        <Empty>No runs match.</Empty>
      ) : (
        <>
          <Table.ScrollContainer minWidth={820}>
            <Table striped highlightOnHover aria-label="Runs">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Name</Table.Th>
                  <Table.Th>Type</Table.Th>
                  <Table.Th>Status</Table.Th>
                  <Table.Th>Started</Table.Th>
                  <Table.Th>Latency</Table.Th>
                  <Table.Th>Tokens</Table.Th>
                  <Table.Th>Cost</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {runs.data.runs.map((r) => (
                  <Table.Tr key={r.id}>
                    <Table.Td>
                      <Anchor component={Link} to={`/console/traces/${projectId}/trace/${r.trace_id}?run=${r.id}`}>
                        {r.name}
                      </Anchor>
                    </Table.Td>
                    <Table.Td>{r.run_type}</Table.Td>
                    <Table.Td>
                      <StatusBadge status={r.status ?? (r.error ? 'error' : 'success')} />
                    </Table.Td>
                    <Table.Td>{formatTime(r.start_time)}</Table.Td>
                    <Table.Td>{latency(r.start_time, r.end_time)}</Table.Td>
                    <Table.Td>{r.total_tokens}</Table.Td>
                    <Table.Td>{r.total_cost ?? '—'}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
          <Group justify="space-between">
            <Text size="sm" c="dimmed">
              Page {cursors.length}
            </Text>
            <Group gap="xs">
              <Button size="xs" variant="default" disabled={cursors.length === 1} onClick={() => setCursors(cursors.slice(0, -1))}>
                Previous
              </Button>
              <Button size="xs" variant="default" disabled={!runs.data.cursors.next} onClick={() => setCursors([...cursors, runs.data.cursors.next])}>
                Next
              </Button>
            </Group>
          </Group>
        </>
      )}
    </Stack>
  );
}
