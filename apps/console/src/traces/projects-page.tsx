import { Anchor, Table } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { listProjects } from '../api/tracing.api';
import { PageHeader } from '../components/page-header';
import { Empty, QueryView } from '../components/states';
import { formatTime } from '../components/time';

export function ProjectsPage() {
  const projects = useQuery({ queryKey: ['projects'], queryFn: listProjects, refetchInterval: 10_000 });
  return (
    <>
      <PageHeader title="Tracing projects" description="Runs sent with the langsmith SDK; each deployment traces to a project named after it." />
      <QueryView query={projects}>
        {(list) =>
          list.length === 0 ? (
            <Empty>No tracing projects yet: runs of your deployments appear here.</Empty>
          ) : (
            <Table.ScrollContainer minWidth={480}>
              <Table striped highlightOnHover aria-label="Tracing projects">
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>Project</Table.Th>
                    <Table.Th>Created</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {list.map((p) => (
                    <Table.Tr key={p.id}>
                      <Table.Td>
                        <Anchor component={Link} to={`/console/traces/${p.id}`}>
                          {p.name}
                        </Anchor>
                      </Table.Td>
                      <Table.Td>{formatTime(String(p.start_time))}</Table.Td>
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
