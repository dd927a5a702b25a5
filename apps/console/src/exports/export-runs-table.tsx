import { Progress, Stack, Table, Text } from '@mantine/core';
import type { ExportRun } from '../api/types';
import { StatusBadge } from '../components/status-badge';
import { formatTime } from '../components/time';

/** Per run (one date partition): a progress bar with rows written and files, and its retries with their errors. */
export function ExportRunsTable({ runs }: { runs: ExportRun[] }) {
  return (
    <Table.ScrollContainer minWidth={720}>
      <Table aria-label="Export runs" verticalSpacing="sm">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Partition</Table.Th>
            <Table.Th>Status</Table.Th>
            <Table.Th w="35%">Progress</Table.Th>
            <Table.Th>Retries</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {runs.map((run) => {
            const result = run.metadata.result;
            const done = run.status === 'Completed';
            const running = run.status === 'Running';
            const errors = Object.entries(run.errors ?? {});
            return (
              <Table.Tr key={run.id} data-testid="export-run">
                <Table.Td>
                  <Text size="xs">
                    {formatTime(run.start_time)} → {formatTime(run.end_time)}
                  </Text>
                </Table.Td>
                <Table.Td>
                  <StatusBadge status={run.status} />
                </Table.Td>
                <Table.Td>
                  <Stack gap={4}>
                    <Progress
                      value={done || running ? 100 : run.status === 'Failed' ? 100 : 0}
                      color={run.status === 'Failed' ? 'red' : done ? 'green' : 'blue'}
                      striped={running}
                      animated={running}
                      aria-label={`Progress of partition ${run.start_time}`}
                    />
                    <Text size="xs" c="dimmed">
                      {result.rows_written} rows · {result.exported_files.length} file{result.exported_files.length === 1 ? '' : 's'} · {result.bytes_written} bytes
                    </Text>
                  </Stack>
                </Table.Td>
                <Table.Td>
                  <Text size="xs">{run.retry_number}</Text>
                  {errors.map(([attempt, message]) => (
                    <Text key={attempt} size="xs" c="red" style={{ wordBreak: 'break-word' }}>
                      {attempt}: {message}
                    </Text>
                  ))}
                </Table.Td>
              </Table.Tr>
            );
          })}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
