import { Alert, Center, Group, Loader, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { ApiError } from '../api/http';

/** Loading, error and empty states, the same everywhere. */
export function Loading({ label = 'Loading…' }: { label?: string }) {
  return (
    <Center py="xl" role="status" aria-live="polite">
      <Group gap="sm">
        <Loader size="sm" />
        <Text c="dimmed">{label}</Text>
      </Group>
    </Center>
  );
}

export function errorText(error: unknown): string {
  if (error instanceof ApiError) return `${error.message} (HTTP ${error.status})`;
  return error instanceof Error ? error.message : String(error);
}

export function ErrorState({ error, title = 'Something went wrong' }: { error: unknown; title?: string }) {
  return (
    <Alert color="red" title={title} role="alert">
      <Text size="sm" style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}>
        {errorText(error)}
      </Text>
    </Alert>
  );
}

export function Empty({ children, action }: { children: ReactNode; action?: ReactNode }) {
  return (
    <Stack align="center" py="xl" gap="sm">
      <Text c="dimmed">{children}</Text>
      {action}
    </Stack>
  );
}

/** Renders `children(data)` once a query has data; its loading and error states otherwise. */
export function QueryView<T>({
  query,
  children,
  loadingLabel,
}: {
  query: { data: T | undefined; error: unknown; isPending: boolean };
  children: (data: T) => ReactNode;
  loadingLabel?: string;
}) {
  if (query.error) return <ErrorState error={query.error} />;
  if (query.isPending || query.data === undefined) return <Loading label={loadingLabel} />;
  return <>{children(query.data)}</>;
}
