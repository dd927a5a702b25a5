import { Anchor, Button, Table, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { deploymentsApi } from '../api/deployments.api';
import { PageHeader } from '../components/page-header';
import { Empty, QueryView } from '../components/states';
import { StatusBadge } from '../components/status-badge';
import { formatTime } from '../components/time';

export function DeploymentsPage() {
  const [name, setName] = useState('');
  const [debounced] = useDebouncedValue(name, 250);
  const list = useQuery({
    queryKey: ['deployments', debounced],
    queryFn: () => deploymentsApi.list({ name_contains: debounced || undefined, limit: 100 }),
    refetchInterval: 5_000,
  });
  return (
    <>
      <PageHeader
        title="Deployments"
        description="Agent Servers built from git repositories."
        actions={
          <Button component={Link} to="/console/deployments/new">
            New deployment
          </Button>
        }
      />
      <TextInput label="Filter by name" placeholder="name contains…" value={name} onChange={(e) => setName(e.currentTarget.value)} mb="md" maw={360} />
      <QueryView query={list}>
        {(page) =>
          page.resources.length === 0 ? (
            <Empty action={<Button component={Link} to="/console/deployments/new">Create your first deployment</Button>}>
              {debounced ? 'No deployment matches.' : 'No deployments yet.'}
            </Empty>
          ) : (
            <Table.ScrollContainer minWidth={560}>
              <Table striped highlightOnHover aria-label="Deployments">
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>Name</Table.Th>
                    <Table.Th>Status</Table.Th>
                    <Table.Th>Source</Table.Th>
                    <Table.Th>Updated</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {page.resources.map((d) => (
                    <Table.Tr key={d.id}>
                      <Table.Td>
                        <Anchor component={Link} to={`/console/deployments/${d.id}`}>
                          {d.name}
                        </Anchor>
                      </Table.Td>
                      <Table.Td>
                        <StatusBadge status={d.status} />
                      </Table.Td>
                      <Table.Td>{d.source}</Table.Td>
                      <Table.Td>{formatTime(d.updated_at)}</Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          )
        }
      </QueryView>
    </>
  );
}
