import { Alert, Button, Group, JsonInput, Stack, Text } from '@mantine/core';
import type { ThreadState } from '@langchain/langgraph-sdk';
import { useState } from 'react';
import { JsonView } from '../components/json-view';

/**
 * A run that stopped before its end: at a breakpoint (continue) or at an `interrupt()` in a node (resume with a
 * value, which the node receives).
 */
export function InterruptPanel({ state, busy, onContinue, onResume }: { state: ThreadState; busy: boolean; onContinue: () => void; onResume: (value: unknown) => void }) {
  const interrupts = state.tasks.flatMap((t) => t.interrupts ?? []);
  const [value, setValue] = useState('""');
  let parsed: unknown;
  let error: string | undefined;
  try {
    parsed = JSON.parse(value);
  } catch (err) {
    error = (err as Error).message;
  }
  return (
    <Alert color="yellow" title={`Interrupted before ${state.next.join(', ')}`} data-testid="interrupt">
      <Stack gap="xs">
        {interrupts.length > 0 ? (
          <>
            <Text size="sm">The graph asks:</Text>
            {interrupts.map((i, n) => (
              <JsonView key={n} value={i.value} maxHeight={160} />
            ))}
            <JsonInput label="Answer (JSON)" value={value} onChange={setValue} autosize minRows={1} error={error} />
            <Group>
              <Button size="xs" onClick={() => onResume(parsed)} disabled={busy || Boolean(error)}>
                Resume with this answer
              </Button>
            </Group>
          </>
        ) : (
          <Group>
            <Text size="sm">Stopped at a breakpoint.</Text>
            <Button size="xs" onClick={onContinue} disabled={busy}>
              Continue
            </Button>
          </Group>
        )}
      </Stack>
    </Alert>
  );
}
