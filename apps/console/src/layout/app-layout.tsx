import { AppShell, Badge, Burger, Button, Group, NavLink, ScrollArea, Text, Title } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import type { ReactNode } from 'react';
import { NavLink as RouterLink, useLocation } from 'react-router';
import { useCurrentSession, useSignOut } from '../session/use-session';
import { WorkspaceSelect } from '../session/workspace-picker';

const SECTIONS = [
  { to: '/console/deployments', label: 'Deployments' },
  { to: '/console/traces', label: 'Traces' },
  { to: '/console/exports', label: 'Bulk exports' },
  { to: '/console/oauth', label: 'OAuth providers' },
];

export function AppLayout({ children }: { children: ReactNode }) {
  const [opened, { toggle, close }] = useDisclosure();
  const session = useCurrentSession();
  const signOut = useSignOut();
  const location = useLocation();
  return (
    <AppShell header={{ height: 56 }} navbar={{ width: 220, breakpoint: 'sm', collapsed: { mobile: !opened } }} padding="md">
      <AppShell.Header>
        <Group h="100%" px="md" justify="space-between" wrap="nowrap">
          <Group gap="sm" wrap="nowrap">
            <Burger opened={opened} onClick={toggle} hiddenFrom="sm" size="sm" aria-label="Toggle navigation" />
            <Title order={4} visibleFrom="xs">
              Agent platform
            </Title>
          </Group>
          <Group gap="xs" wrap="nowrap">
            <WorkspaceSelect />
            <Badge variant="outline" visibleFrom="md" title={session.api_key.description}>
              {session.api_key.short_key} · {session.api_key.role}
            </Badge>
            <Button size="xs" variant="default" onClick={() => signOut.mutate()} loading={signOut.isPending}>
              Sign out
            </Button>
          </Group>
        </Group>
      </AppShell.Header>
      <AppShell.Navbar p="xs" aria-label="Sections">
        <ScrollArea>
          {SECTIONS.map((s) => (
            <NavLink key={s.to} component={RouterLink} to={s.to} label={s.label} active={location.pathname.startsWith(s.to)} onClick={close} />
          ))}
          <Text size="xs" c="dimmed" mt="md" px="sm">
            Session until {session.expires_at ? new Date(session.expires_at).toLocaleTimeString() : '—'}
          </Text>
        </ScrollArea>
      </AppShell.Navbar>
      <AppShell.Main>{children}</AppShell.Main>
    </AppShell>
  );
}
