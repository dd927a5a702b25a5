import { Button, Grid, Paper, Stack, Table, Text, Title, UnstyledButton } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { deploymentsApi, isRevisionDone } from '../api/deployments.api';
import type { Deployment } from '../api/types';
import { Empty, ErrorState, QueryView } from '../components/states';
import { StatusBadge } from '../components/status-badge';
import { formatTime } from '../components/time';
import { RevisionLog } from './revision-log';
import { RevisionTimeline } from './revision-timeline';

/** The deployment's revisions (latest first); the one picked shows its status timeline and live log. */
export function RevisionsPanel({ deployment }: { deployment: Deployment }) {
  const client = useQueryClient();
  const revisions = useQuery({
    queryKey: ['revisions', deployment.id],
    queryFn: () => deploymentsApi.revisions(deployment.id),
    refetchInterval: (query) => (query.state.data?.resources.every(isRevisionDone) ? 10_000 : 1_000),
  });
  const [picked, setPicked] = useState<string>();
  const redeploy = useMutation({
    mutationFn: (revisionId: string) => deploymentsApi.redeploy(deployment.id, revisionId),
    onSuccess: () => {
      setPicked(undefined);
      void client.invalidateQueries({ queryKey: ['revisions', deployment.id] });
      void client.invalidateQueries({ queryKey: ['deployment', deployment.id] });
    },
  });
  return (
    <Paper withBorder p="md">
      <Title order={3} size="h4" mb="sm">
        Revisions
      </Title>
      <QueryView query={revisions}>
        {(page) => {
          if (page.resources.length === 0) return <Empty>No revisions.</Empty>;
          const current = page.resources.find((r) => r.id === picked) ?? page.resources[0];
          return (
            <Grid gap="md">
              <Grid.Col span={{ base: 12, md: 5 }}>
                <Table.ScrollContainer minWidth={320}>
                  <Table highlightOnHover aria-label="Revisions">
                    <Table.Thead>
                      <Table.Tr>
                        <Table.Th>Created</Table.Th>
                        <Table.Th>Status</Table.Th>
                      </Table.Tr>
                    </Table.Thead>
                    <Table.Tbody>
                      {page.resources.map((r) => (
                        <Table.Tr key={r.id} bg={r.id === current.id ? 'var(--mantine-color-blue-light)' : undefined}>
                          <Table.Td>
                            <UnstyledButton onClick={() => setPicked(r.id)} aria-pressed={r.id === current.id} aria-label={`Revision ${r.id}`}>
                              <Text size="sm">{formatTime(r.created_at)}</Text>
                              <Text size="xs" c="dimmed">
                                {String(r.source_revision_config.repo_ref ?? r.source_revision_config.image_uri ?? '')}{' '}
                                {String(r.source_revision_config.repo_commit_sha ?? '').slice(0, 8)}
                              </Text>
                            </UnstyledButton>
                          </Table.Td>
                          <Table.Td>
                            <StatusBadge status={r.status} />
                          </Table.Td>
                        </Table.Tr>
                      ))}
                    </Table.Tbody>
                  </Table>
                </Table.ScrollContainer>
              </Grid.Col>
              <Grid.Col span={{ base: 12, md: 7 }}>
                <Stack>
                  <RevisionTimeline revision={current} />
                  <RevisionLog deploymentId={deployment.id} revision={current} />
                  <Button variant="light" onClick={() => redeploy.mutate(current.id)} loading={redeploy.isPending} style={{ alignSelf: 'flex-start' }}>
                    Redeploy this revision
                  </Button>
                  {redeploy.error && <ErrorState error={redeploy.error} title="Redeploy refused" />}
                </Stack>
              </Grid.Col>
            </Grid>
          );
        }}
      </QueryView>
    </Paper>
  );
}
