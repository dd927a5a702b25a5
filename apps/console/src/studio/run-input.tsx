import { Button, Group, JsonInput, MultiSelect, SegmentedControl, Stack, Textarea } from '@mantine/core';
import { useState, type KeyboardEvent } from 'react';

export interface RunRequest {
  input: unknown;
  interruptBefore: string[];
}

/** Chat or JSON input for a new run, with the nodes to stop before (breakpoints); Cancel while a run streams. */
export function RunInput({ nodes, busy, onRun, onCancel }: { nodes: string[]; busy: boolean; onRun: (request: RunRequest) => void; onCancel: () => void }) {
  const [mode, setMode] = useState<'chat' | 'json'>('chat');
  const [text, setText] = useState('');
  const [json, setJson] = useState('{\n  "messages": [{ "type": "human", "content": "" }]\n}');
  const [interruptBefore, setInterruptBefore] = useState<string[]>([]);
  let jsonError: string | undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(json);
  } catch (err) {
    jsonError = (err as Error).message;
  }
  const send = () => {
    if (busy) return;
    if (mode === 'chat' && text.trim()) {
      onRun({ input: { messages: [{ type: 'human', content: text.trim() }] }, interruptBefore });
      setText('');
    } else if (mode === 'json' && !jsonError) onRun({ input: parsed, interruptBefore });
  };
  const onKey = (event: KeyboardEvent) => {
    if (event.key === 'Enter' && !event.shiftKey && mode === 'chat') {
      event.preventDefault();
      send();
    }
  };
  return (
    <Stack gap="xs">
      <Group justify="space-between" wrap="wrap">
        <SegmentedControl
          size="xs"
          value={mode}
          onChange={(v) => setMode(v as 'chat' | 'json')}
          data={[
            { value: 'chat', label: 'Chat' },
            { value: 'json', label: 'JSON input' },
          ]}
          aria-label="Input mode"
        />
        <MultiSelect
          size="xs"
          data={nodes}
          value={interruptBefore}
          onChange={setInterruptBefore}
          placeholder="Interrupt before…"
          aria-label="Interrupt before nodes"
          clearable
          w={{ base: '100%', sm: 260 }}
        />
      </Group>
      {mode === 'chat' ? (
        <Textarea aria-label="Message" placeholder="Message the agent (Enter sends, Shift+Enter for a new line)" value={text} onChange={(e) => setText(e.currentTarget.value)} onKeyDown={onKey} autosize minRows={2} maxRows={8} />
      ) : (
        <JsonInput aria-label="Run input (JSON)" value={json} onChange={setJson} autosize minRows={4} error={jsonError} />
      )}
      <Group justify="flex-end">
        {busy && (
          <Button color="red" variant="light" onClick={onCancel}>
            Cancel run
          </Button>
        )}
        <Button onClick={send} loading={busy} disabled={mode === 'chat' ? !text.trim() : Boolean(jsonError)}>
          {mode === 'chat' ? 'Send' : 'Run'}
        </Button>
      </Group>
    </Stack>
  );
}
