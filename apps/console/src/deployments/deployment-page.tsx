import { Anchor, Button, Group, Paper, SimpleGrid, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from 'react-router';
import { deploymentDocsUrl } from '../api/agent-client';
import { deploymentsApi } from '../api/deployments.api';
import type { Deployment, SourceConfig, SourceRevisionConfig } from '../api/types';
import { CopyField } from '../components/copy-field';
import { PageHeader } from '../components/page-header';
import { QueryView } from '../components/states';
import { StatusBadge } from '../components/status-badge';
import { formatTime } from '../components/time';
import { DeleteDeployment } from './delete-deployment';
import { EditDeploymentForm } from './edit-deployment-form';
import { RevisionsPanel } from './revisions-panel';

function Overview({ deployment }: { deployment: Deployment }) {
  const source = deployment.source_config as SourceConfig;
  const revision = deployment.source_revision_config as SourceRevisionConfig;
  const apiUrl = source.custom_url ?? `${window.location.origin}/deployments/${deployment.id}`;
  const facts: Array<[string, string]> = [
    ['Repository', source.repo_url ?? '—'],
    ['Ref', revision.repo_ref ?? '—'],
    ['langgraph.json', revision.langgraph_config_path ?? 'langgraph.json'],
    ['Commit', revision.repo_commit_sha ?? '—'],
    ['Created', formatTime(deployment.created_at)],
    ['Secrets', deployment.secrets.map((s) => s.name).join(', ') || 'none'],
  ];
  return (
    <Paper withBorder p="md">
      <Stack gap="sm">
        <Text size="sm" fw={500}>
          API URL
        </Text>
        <CopyField value={apiUrl} label="API URL" />
        <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="xs">
          {facts.map(([label, value]) => (
            <div key={label}>
              <Text size="xs" c="dimmed">
                {label}
              </Text>
              <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
                {value}
              </Text>
            </div>
          ))}
        </SimpleGrid>
      </Stack>
    </Paper>
  );
}

export function DeploymentPage() {
  const { deploymentId = '' } = useParams();
  const deployment = useQuery({ queryKey: ['deployment', deploymentId], queryFn: () => deploymentsApi.get(deploymentId), refetchInterval: 3_000 });
  return (
    <QueryView query={deployment}>
      {(d) => (
        <Stack>
          <PageHeader
            title={
              <Group gap="sm">
                {d.name} <StatusBadge status={d.status} />
              </Group>
            }
            description={
              <Anchor component={Link} to="/console/deployments" size="sm">
                ← All deployments
              </Anchor>
            }
            actions={
              <>
                <Button component={Link} to={`/console/deployments/${d.id}/studio`}>
                  Open studio
                </Button>
                <Button component="a" href={deploymentDocsUrl(d.id)} target="_blank" rel="noopener" variant="default">
                  API docs
                </Button>
                <DeleteDeployment deployment={d} />
              </>
            }
          />
          <Overview deployment={d} />
          <RevisionsPanel deployment={d} />
          {d.source === 'github' && <EditDeploymentForm key={d.id} deployment={d} />}
        </Stack>
      )}
    </QueryView>
  );
}
