import { Badge, Code, Group, ScrollArea, Text } from '@mantine/core';
import { useEffect, useRef, useState } from 'react';
import { deploymentsApi, isRevisionDone } from '../api/deployments.api';
import type { Revision, RevisionLogs } from '../api/types';
import { ErrorState } from '../components/states';

type Line = RevisionLogs['logs'][number];

/**
 * A revision's build and start log, followed live: pages after the last cursor every second while the revision is in
 * progress, once more when it is done.
 */
export function RevisionLog({ deploymentId, revision }: { deploymentId: string; revision: Revision }) {
  const [lines, setLines] = useState<Line[]>([]);
  const [error, setError] = useState<unknown>();
  const cursor = useRef<string | undefined>(undefined);
  const done = isRevisionDone(revision);
  const viewport = useRef<HTMLDivElement>(null);

  useEffect(() => {
    cursor.current = undefined;
    setLines([]);
  }, [revision.id]);

  useEffect(() => {
    let stopped = false;
    const read = async () => {
      try {
        for (;;) {
          const page = await deploymentsApi.logs(deploymentId, revision.id, { offset: cursor.current });
          if (stopped) return;
          if (page.logs.length) setLines((previous) => [...previous, ...page.logs]);
          cursor.current = page.next_offset ?? cursor.current;
          if (page.logs.length < 1000) break;
        }
        setError(undefined);
      } catch (err) {
        if (!stopped) setError(err);
      }
    };
    void read();
    const timer = done ? undefined : setInterval(() => void read(), 1_000);
    return () => {
      stopped = true;
      clearInterval(timer);
    };
  }, [deploymentId, revision.id, done]);

  useEffect(() => {
    viewport.current?.scrollTo({ top: viewport.current.scrollHeight });
  }, [lines.length]);

  if (error) return <ErrorState error={error} title="Could not read the log" />;
  return (
    <div>
      <Group gap="xs" mb={4}>
        <Text size="sm" fw={500}>
          Build and start log
        </Text>
        {!done && (
          <Badge size="xs" variant="dot" color="blue">
            live
          </Badge>
        )}
      </Group>
      <ScrollArea h={280} viewportRef={viewport} type="auto" style={{ background: 'var(--mantine-color-dark-7)', borderRadius: 6 }}>
        <Code block data-testid="revision-log" style={{ background: 'transparent', color: 'var(--mantine-color-gray-2)', whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}>
          {lines.length === 0
            ? done
              ? 'No log lines for this revision.'
              : 'Waiting for output…'
            : lines.map((l) => `${l.type === 'deploy' ? '[deploy] ' : ''}${l.level === 'ERROR' ? 'ERROR ' : ''}${l.message}`).join('\n')}
        </Code>
      </ScrollArea>
    </div>
  );
}
