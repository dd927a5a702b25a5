import { Button, Center, Paper, Select, Stack, Text, Title } from '@mantine/core';
import { errorText } from '../components/states';
import { useCurrentSession, usePickWorkspace } from './use-session';

function options(workspaces: Array<{ id: string; display_name: string }>) {
  return workspaces.map((w) => ({ value: w.id, label: w.display_name }));
}

/** The header's picker: switches the workspace every request of the session goes to. */
export function WorkspaceSelect() {
  const session = useCurrentSession();
  const pick = usePickWorkspace();
  return (
    <Select
      aria-label="Workspace"
      data={options(session.workspaces)}
      value={session.workspace_id}
      onChange={(id) => id && id !== session.workspace_id && pick.mutate(id)}
      allowDeselect={false}
      disabled={session.workspaces.length < 2 || pick.isPending}
      error={pick.error ? errorText(pick.error) : undefined}
      w={{ base: 150, sm: 220 }}
      size="xs"
      comboboxProps={{ withinPortal: true }}
      data-testid="workspace-select"
    />
  );
}

/** Shown after sign-in when the key spans several workspaces and none is picked yet. */
export function WorkspacePickerPage() {
  const session = useCurrentSession();
  const pick = usePickWorkspace();
  return (
    <Center mih="100vh" p="md">
      <Paper withBorder p="xl" radius="md" w="100%" maw={440}>
        <Stack>
          <Title order={2}>Pick a workspace</Title>
          <Text size="sm" c="dimmed">
            This key ({session.api_key.short_key}) may use {session.workspaces.length} workspaces. You can switch later from the header.
          </Text>
          {session.workspaces.map((w) => (
            <Button key={w.id} variant="light" onClick={() => pick.mutate(w.id)} loading={pick.isPending && pick.variables === w.id}>
              {w.display_name}
            </Button>
          ))}
          {pick.error && <Text c="red">{errorText(pick.error)}</Text>}
        </Stack>
      </Paper>
    </Center>
  );
}
