import { ActionIcon, Button, Group, PasswordInput, Stack, Text, TextInput } from '@mantine/core';

export interface SecretRow {
  name: string;
  value: string;
}

/** Environment variables of a deployment, written once and never shown back (the API keeps only their names). */
export function SecretsEditor({ rows, onChange, errors }: { rows: SecretRow[]; onChange: (rows: SecretRow[]) => void; errors: Record<string, string> }) {
  const set = (i: number, patch: Partial<SecretRow>) => onChange(rows.map((row, j) => (j === i ? { ...row, ...patch } : row)));
  return (
    <Stack gap="xs">
      <Text size="sm" fw={500}>
        Environment variables and secrets
      </Text>
      {rows.length === 0 && (
        <Text size="sm" c="dimmed">
          None.
        </Text>
      )}
      {rows.map((row, i) => (
        <Group key={i} align="flex-start" wrap="nowrap" gap="xs">
          <TextInput
            aria-label={`Name of variable ${i + 1}`}
            placeholder="NAME"
            value={row.name}
            onChange={(e) => set(i, { name: e.currentTarget.value })}
            error={errors[`secrets.${i}.name`]}
            style={{ flex: 1 }}
          />
          <PasswordInput
            aria-label={`Value of variable ${i + 1}`}
            placeholder="value"
            value={row.value}
            onChange={(e) => set(i, { value: e.currentTarget.value })}
            error={errors[`secrets.${i}.value`]}
            style={{ flex: 1 }}
          />
          <ActionIcon variant="subtle" color="red" mt={6} aria-label={`Remove variable ${i + 1}`} onClick={() => onChange(rows.filter((_, j) => j !== i))}>
            ×
          </ActionIcon>
        </Group>
      ))}
      {errors.secrets && <Text size="xs" c="red">{errors.secrets}</Text>}
      <Button variant="subtle" size="compact-sm" onClick={() => onChange([...rows, { name: '', value: '' }])} style={{ alignSelf: 'flex-start' }}>
        Add variable
      </Button>
    </Stack>
  );
}
