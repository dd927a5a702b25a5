import { Button, CopyButton, Group, Code } from '@mantine/core';

/** A value shown in full with a copy button (e.g. a deployment's API URL). */
export function CopyField({ value, label }: { value: string; label: string }) {
  return (
    <Group gap="xs" wrap="wrap" style={{ minWidth: 0 }}>
      <Code style={{ overflowWrap: 'anywhere' }} data-testid={`${label}-value`}>
        {value}
      </Code>
      <CopyButton value={value}>
        {({ copied, copy }) => (
          <Button size="compact-sm" variant="light" color={copied ? 'teal' : 'blue'} onClick={copy} aria-label={`Copy ${label}`}>
            {copied ? 'Copied' : 'Copy'}
          </Button>
        )}
      </CopyButton>
    </Group>
  );
}
