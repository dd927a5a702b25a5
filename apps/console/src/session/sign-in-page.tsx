import { Anchor, Button, Center, Paper, PasswordInput, Stack, Text, Title } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { errorText } from '../components/states';
import { useSignIn } from './use-session';

/** Paste an API key: the gateway answers with a session cookie (the key itself is not kept in the browser). */
export function SignInPage({ expired }: { expired?: boolean }) {
  const [apiKey, setApiKey] = useState('');
  const signIn = useSignIn();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (apiKey.trim()) signIn.mutate(apiKey.trim());
  };
  return (
    <Center mih="100vh" p="md">
      <Paper withBorder shadow="sm" p="xl" radius="md" w="100%" maw={440} component="form" onSubmit={submit} aria-labelledby="sign-in-title">
        <Stack>
          <Title order={2} id="sign-in-title">
            Sign in to the agent platform
          </Title>
          <Text size="sm" c="dimmed">
            Paste an API key (<Anchor href="https://docs.langchain.com/langsmith/create-account-api-key">LangSmith-style</Anchor>, e.g. the admin key
            printed by the first <code>npm start</code>). The browser keeps only a short-lived session, ended by signing out or by revoking the key.
          </Text>
          {expired && !signIn.error && (
            <Text size="sm" c="orange" role="status">
              Your session ended. Sign in again.
            </Text>
          )}
          <PasswordInput
            label="API key"
            placeholder="lsv2_sk_…"
            value={apiKey}
            onChange={(e) => setApiKey(e.currentTarget.value)}
            error={signIn.error ? errorText(signIn.error) : undefined}
            autoComplete="off"
            data-autofocus
            autoFocus
            required
          />
          <Button type="submit" loading={signIn.isPending}>
            Sign in
          </Button>
        </Stack>
      </Paper>
    </Center>
  );
}
