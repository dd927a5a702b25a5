import { Alert, Anchor, Center, Code, Paper, Stack, Text, Title } from '@mantine/core';
import { Link, useSearchParams } from 'react-router';

/**
 * Where `GET /v2/auth/callback/{provider_id}` sends the browser after the token exchange: success, or the
 * provider's `error` and `error_description`. It needs no session (the flow's `state` authenticated the callback).
 */
export function OAuthCallbackPage() {
  const [params] = useSearchParams();
  const status = params.get('status');
  const error = params.get('error');
  const failed = status !== 'completed' || Boolean(error);
  return (
    <Center mih="100vh" p="md">
      <Paper withBorder p="xl" radius="md" w="100%" maw={520}>
        <Stack>
          <Title order={2}>{failed ? 'Authorization failed' : 'Authorization complete'}</Title>
          {failed ? (
            <Alert color="red" title={error ?? `Status: ${status ?? 'unknown'}`} role="alert" data-testid="oauth-error">
              {params.get('error_description') ?? 'The provider gave no description.'}
            </Alert>
          ) : (
            <Alert color="green" role="status" data-testid="oauth-success">
              {params.get('provider_id') ?? 'The provider'} granted access. You can close this page; the agent waiting for it goes on.
            </Alert>
          )}
          {params.get('auth_id') && (
            <Text size="sm" c="dimmed">
              Flow <Code>{params.get('auth_id')}</Code>
            </Text>
          )}
          <Anchor component={Link} to="/console/oauth">
            OAuth providers
          </Anchor>
        </Stack>
      </Paper>
    </Center>
  );
}
