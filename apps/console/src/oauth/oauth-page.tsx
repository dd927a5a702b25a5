import { Alert, Button, Group, Paper, PasswordInput, Stack, Switch, Table, Text, TextInput, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { ApiError } from '../api/http';
import { oauthApi, type ProviderInput } from '../api/oauth.api';
import { PageHeader } from '../components/page-header';
import { Empty, ErrorState, QueryView, errorText } from '../components/states';

const EMPTY: ProviderInput = { provider_id: '', name: '', client_id: '', client_secret: '', auth_url: '', token_url: '', uses_pkce: false };

function ProviderForm() {
  const client = useQueryClient();
  const [form, setForm] = useState<ProviderInput>(EMPTY);
  const create = useMutation({
    mutationFn: (body: ProviderInput) => oauthApi.create(body),
    onSuccess: () => {
      setForm(EMPTY);
      void client.invalidateQueries({ queryKey: ['oauth-providers'] });
    },
  });
  const errors = create.error instanceof ApiError ? create.error.fieldErrors() : {};
  const text = (key: 'provider_id' | 'name' | 'client_id' | 'auth_url' | 'token_url') => ({
    value: form[key],
    onChange: (e: React.ChangeEvent<HTMLInputElement>) => setForm({ ...form, [key]: e.currentTarget.value }),
    error: errors[key],
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate({ ...form, client_secret: form.client_secret || null });
  };
  return (
    <Paper withBorder p="md" component="form" onSubmit={submit} noValidate maw={720}>
      <Stack gap="sm">
        <Title order={3} size="h5">
          Add a provider
        </Title>
        {create.error && !(create.error instanceof ApiError && create.error.problems.length) && <Alert color="red">{errorText(create.error)}</Alert>}
        <Group grow align="flex-start">
          <TextInput label="Provider id" placeholder="github" required {...text('provider_id')} />
          <TextInput label="Name" required {...text('name')} />
        </Group>
        <Group grow align="flex-start">
          <TextInput label="Client id" required {...text('client_id')} />
          <PasswordInput label="Client secret" value={form.client_secret ?? ''} onChange={(e) => setForm({ ...form, client_secret: e.currentTarget.value })} error={errors.client_secret} />
        </Group>
        <TextInput label="Authorization URL" required {...text('auth_url')} />
        <TextInput label="Token URL" required {...text('token_url')} />
        <Switch label="PKCE" checked={Boolean(form.uses_pkce)} onChange={(e) => setForm({ ...form, uses_pkce: e.currentTarget.checked })} />
        <Group justify="flex-end">
          <Button type="submit" loading={create.isPending}>
            Add provider
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}

/** OAuth providers of the workspace (agents ask users to authorize through them); the callback lands on this console. */
export function OAuthPage() {
  const client = useQueryClient();
  const providers = useQuery({ queryKey: ['oauth-providers'], queryFn: oauthApi.providers });
  const remove = useMutation({
    mutationFn: (providerId: string) => oauthApi.remove(providerId),
    onSuccess: () => void client.invalidateQueries({ queryKey: ['oauth-providers'] }),
  });
  const toggle = useMutation({
    mutationFn: ({ providerId, usesPkce }: { providerId: string; usesPkce: boolean }) => oauthApi.update(providerId, { uses_pkce: usesPkce }),
    onSuccess: () => void client.invalidateQueries({ queryKey: ['oauth-providers'] }),
  });
  return (
    <Stack>
      <PageHeader
        title="OAuth providers"
        description={
          <>
            After a user authorizes, the provider redirects to <code>/v2/auth/callback/&#123;provider_id&#125;</code>, which sends the browser to{' '}
            <code>{window.location.origin}/console/oauth/callback</code>.
          </>
        }
      />
      {(remove.error || toggle.error) && <ErrorState error={remove.error ?? toggle.error} />}
      <QueryView query={providers}>
        {(list) =>
          list.length === 0 ? (
            <Empty>No providers yet.</Empty>
          ) : (
            <Table.ScrollContainer minWidth={640}>
              <Table striped aria-label="OAuth providers">
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>Provider</Table.Th>
                    <Table.Th>Client id</Table.Th>
                    <Table.Th>Authorization URL</Table.Th>
                    <Table.Th>PKCE</Table.Th>
                    <Table.Th />
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {list.map((p) => (
                    <Table.Tr key={p.provider_id}>
                      <Table.Td>
                        <Text size="sm" fw={500}>
                          {p.name}
                        </Text>
                        <Text size="xs" c="dimmed">
                          {p.provider_id}
                        </Text>
                      </Table.Td>
                      <Table.Td>{p.client_id}</Table.Td>
                      <Table.Td>
                        <Text size="xs" style={{ wordBreak: 'break-all' }}>
                          {p.auth_url}
                        </Text>
                      </Table.Td>
                      <Table.Td>
                        <Switch aria-label={`PKCE for ${p.provider_id}`} checked={p.uses_pkce} onChange={(e) => toggle.mutate({ providerId: p.provider_id, usesPkce: e.currentTarget.checked })} />
                      </Table.Td>
                      <Table.Td>
                        <Button size="compact-xs" color="red" variant="subtle" onClick={() => remove.mutate(p.provider_id)} loading={remove.isPending && remove.variables === p.provider_id}>
                          Delete
                        </Button>
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          )
        }
      </QueryView>
      <ProviderForm />
    </Stack>
  );
}
