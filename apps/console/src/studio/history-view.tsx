import { Button, Grid, JsonInput, Stack, Text, UnstyledButton } from '@mantine/core';
import type { ThreadState } from '@langchain/langgraph-sdk';
import { useState } from 'react';
import { JsonView } from '../components/json-view';
import { formatTime } from '../components/time';

/**
 * The thread's checkpoints, newest first. Picking one shows the state then; "Fork from here" starts a run from that
 * checkpoint (with an optional JSON input), making a new branch of the thread.
 */
export function HistoryView({ history, onFork, busy }: { history: ThreadState[]; onFork: (state: ThreadState, input: unknown) => void; busy: boolean }) {
  const [pickedId, setPickedId] = useState<string>();
  const [input, setInput] = useState('');
  if (history.length === 0) return <Text c="dimmed">No checkpoints yet.</Text>;
  const picked = history.find((h) => h.checkpoint.checkpoint_id === pickedId) ?? history[0];
  let parsed: unknown = null;
  let inputError: string | undefined;
  try {
    parsed = input.trim() ? JSON.parse(input) : null;
  } catch (err) {
    inputError = (err as Error).message;
  }
  return (
    <Grid>
      <Grid.Col span={{ base: 12, md: 4 }}>
        <Stack gap={4} role="list" aria-label="Checkpoints">
          {history.map((h, i) => {
            const id = h.checkpoint.checkpoint_id ?? String(i);
            const step = (h.metadata as { step?: number } | null)?.step;
            return (
              <UnstyledButton
                key={id}
                role="listitem"
                onClick={() => setPickedId(id)}
                aria-current={picked === h}
                p={6}
                style={{ borderRadius: 6, background: picked === h ? 'var(--mantine-color-blue-light)' : undefined }}
              >
                <Text size="xs" fw={500}>
                  Step {step ?? '?'} {h.next.length ? `→ ${h.next.join(', ')}` : '(end)'}
                </Text>
                <Text size="xs" c="dimmed">
                  {formatTime(h.created_at)}
                </Text>
              </UnstyledButton>
            );
          })}
        </Stack>
      </Grid.Col>
      <Grid.Col span={{ base: 12, md: 8 }}>
        <Stack>
          <Text size="sm" fw={500}>
            State at this checkpoint
          </Text>
          <JsonView value={picked.values} label="State at the picked checkpoint" />
          <JsonInput label="Input for the fork (JSON, optional)" value={input} onChange={setInput} autosize minRows={2} error={inputError} />
          <Button variant="light" disabled={busy || Boolean(inputError)} onClick={() => onFork(picked, parsed)} style={{ alignSelf: 'flex-start' }}>
            Fork from here
          </Button>
        </Stack>
      </Grid.Col>
    </Grid>
  );
}
