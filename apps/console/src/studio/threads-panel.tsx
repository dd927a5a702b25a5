import { Button, Group, JsonInput, Select, Stack, Text, UnstyledButton } from '@mantine/core';
import type { Client, ThreadStatus } from '@langchain/langgraph-sdk';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Empty, ErrorState, Loading } from '../components/states';
import { StatusBadge } from '../components/status-badge';
import { formatTime } from '../components/time';

const STATUSES: ThreadStatus[] = ['idle', 'busy', 'interrupted', 'error'];

function parseMetadata(text: string): Record<string, unknown> | undefined | Error {
  if (!text.trim()) return undefined;
  try {
    const value = JSON.parse(text) as unknown;
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : new Error('Metadata filter must be a JSON object');
  } catch (err) {
    return err as Error;
  }
}

/** The deployment's threads, searched by status and metadata (newest first); picking one opens it. */
export function ThreadsPanel({ client, deploymentId, selected, onSelect }: { client: Client; deploymentId: string; selected: string | null; onSelect: (threadId: string | null) => void }) {
  const [status, setStatus] = useState<string | null>(null);
  const [metadataText, setMetadataText] = useState('');
  const metadata = parseMetadata(metadataText);
  const threads = useQuery({
    queryKey: ['threads', deploymentId, status, metadataText],
    queryFn: () => client.threads.search({ limit: 25, status: (status ?? undefined) as ThreadStatus | undefined, metadata: metadata instanceof Error ? undefined : metadata, sortBy: 'updated_at', sortOrder: 'desc' }),
    enabled: !(metadata instanceof Error),
    refetchInterval: 5_000,
  });
  return (
    <Stack gap="xs">
      <Group justify="space-between">
        <Text fw={500}>Threads</Text>
        <Button size="compact-sm" variant="light" onClick={() => onSelect(null)}>
          New thread
        </Button>
      </Group>
      <Select aria-label="Thread status" placeholder="Any status" data={STATUSES} value={status} onChange={setStatus} clearable size="xs" />
      <JsonInput aria-label="Metadata filter" placeholder='Metadata filter, e.g. {"user": "ada"}' value={metadataText} onChange={setMetadataText} size="xs" autosize minRows={1} error={metadata instanceof Error ? metadata.message : undefined} />
      {threads.error ? (
        <ErrorState error={threads.error} />
      ) : threads.isPending && threads.fetchStatus !== 'idle' ? (
        <Loading />
      ) : !threads.data?.length ? (
        <Empty>No threads.</Empty>
      ) : (
        <Stack gap={4} role="list" aria-label="Threads">
          {threads.data.map((t) => (
            <UnstyledButton
              key={t.thread_id}
              role="listitem"
              onClick={() => onSelect(t.thread_id)}
              aria-current={t.thread_id === selected}
              p={6}
              style={{ borderRadius: 6, background: t.thread_id === selected ? 'var(--mantine-color-blue-light)' : undefined }}
            >
              <Group justify="space-between" wrap="nowrap" gap="xs">
                <Text size="xs" ff="monospace" truncate>
                  {t.thread_id.slice(0, 8)}
                </Text>
                <StatusBadge status={t.status} />
              </Group>
              <Text size="xs" c="dimmed">
                {formatTime(t.updated_at)}
              </Text>
            </UnstyledButton>
          ))}
        </Stack>
      )}
    </Stack>
  );
}
