import { Code, ScrollArea } from '@mantine/core';

/** A value as indented JSON, scrollable, selectable. */
export function JsonView({ value, maxHeight = 360, label }: { value: unknown; maxHeight?: number; label?: string }) {
  return (
    <ScrollArea.Autosize mah={maxHeight} type="auto" aria-label={label}>
      <Code block style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}>
        {value === undefined ? '—' : JSON.stringify(value, null, 2)}
      </Code>
    </ScrollArea.Autosize>
  );
}
