import { Anchor, Badge, Grid, Stack, Table, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { exportsApi } from '../api/exports.api';
import { PageHeader } from '../components/page-header';
import { Empty, QueryView } from '../components/states';
import { StatusBadge } from '../components/status-badge';
import { formatTime } from '../components/time';
import { DestinationForm } from './destination-form';
import { ExportForm } from './export-form';

export function ExportsPage() {
  const destinations = useQuery({ queryKey: ['destinations'], queryFn: exportsApi.destinations });
  const exports = useQuery({ queryKey: ['exports'], queryFn: exportsApi.list, refetchInterval: 3_000 });
  return (
    <Stack>
      <PageHeader title="Bulk exports" description="Trace runs exported to S3 as Parquet, once or on a schedule." />
      <Grid>
        <Grid.Col span={{ base: 12, lg: 7 }}>
          <Stack>
            <Title order={3} size="h4">
              Exports
            </Title>
            <QueryView query={exports}>
              {(list) =>
                list.length === 0 ? (
                  <Empty>No exports yet.</Empty>
                ) : (
                  <Table.ScrollContainer minWidth={560}>
                    <Table striped highlightOnHover aria-label="Exports">
                      <Table.Thead>
                        <Table.Tr>
                          <Table.Th>Export</Table.Th>
                          <Table.Th>Status</Table.Th>
                          <Table.Th>Window</Table.Th>
                          <Table.Th>Created</Table.Th>
                        </Table.Tr>
                      </Table.Thead>
                      <Table.Tbody>
                        {list.map((e) => (
                          <Table.Tr key={e.id}>
                            <Table.Td>
                              <Anchor component={Link} to={`/console/exports/${e.id}`} ff="monospace" size="sm">
                                {e.id.slice(0, 8)}
                              </Anchor>{' '}
                              {e.interval_hours && <Badge size="xs" variant="outline">every {e.interval_hours} h</Badge>}
                              {e.source_bulk_export_id && <Badge size="xs" variant="outline">spawned</Badge>}
                            </Table.Td>
                            <Table.Td>
                              <StatusBadge status={e.status} />
                            </Table.Td>
                            <Table.Td>
                              <Text size="xs">
                                {formatTime(e.start_time)} → {e.end_time ? formatTime(e.end_time) : '…'}
                              </Text>
                            </Table.Td>
                            <Table.Td>{formatTime(e.created_at)}</Table.Td>
                          </Table.Tr>
                        ))}
                      </Table.Tbody>
                    </Table>
                  </Table.ScrollContainer>
                )
              }
            </QueryView>
            <QueryView query={destinations}>
              {(list) =>
                list.length === 0 ? (
                  <Text c="dimmed" size="sm">
                    Create a destination first: exports write into it.
                  </Text>
                ) : (
                  <ExportForm destinations={list} />
                )
              }
            </QueryView>
          </Stack>
        </Grid.Col>
        <Grid.Col span={{ base: 12, lg: 5 }}>
          <Stack>
            <Title order={3} size="h4">
              Destinations
            </Title>
            <QueryView query={destinations}>
              {(list) =>
                list.length === 0 ? (
                  <Empty>No destinations yet.</Empty>
                ) : (
                  <Table aria-label="Destinations">
                    <Table.Thead>
                      <Table.Tr>
                        <Table.Th>Name</Table.Th>
                        <Table.Th>Bucket / prefix</Table.Th>
                        <Table.Th>Credentials</Table.Th>
                      </Table.Tr>
                    </Table.Thead>
                    <Table.Tbody>
                      {list.map((d) => (
                        <Table.Tr key={d.id}>
                          <Table.Td>{d.display_name}</Table.Td>
                          <Table.Td>
                            <Text size="xs" ff="monospace">
                              {d.config.bucket_name}/{d.config.prefix}
                            </Text>
                          </Table.Td>
                          <Table.Td>
                            <Text size="xs" c="dimmed">
                              {d.credentials_keys.length ? `${d.credentials_keys.join(', ')} (hidden)` : 'default chain'}
                            </Text>
                          </Table.Td>
                        </Table.Tr>
                      ))}
                    </Table.Tbody>
                  </Table>
                )
              }
            </QueryView>
            <DestinationForm />
          </Stack>
        </Grid.Col>
      </Grid>
    </Stack>
  );
}
