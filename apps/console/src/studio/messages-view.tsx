import { Badge, Code, Group, Paper, Stack, Text } from '@mantine/core';
import type { Message } from '@langchain/langgraph-sdk';

function textOf(content: Message['content']): string {
  if (typeof content === 'string') return content;
  return content.map((part) => ('text' in part && typeof part.text === 'string' ? part.text : `[${part.type}]`)).join('');
}

const ROLE: Record<string, { label: string; color: string }> = {
  human: { label: 'You', color: 'blue' },
  ai: { label: 'AI', color: 'violet' },
  tool: { label: 'Tool', color: 'teal' },
  system: { label: 'System', color: 'gray' },
};

/** The thread's messages as they stream: AI text grows token by token, tool calls and results shown inline. */
export function MessagesView({ messages }: { messages: Message[] }) {
  if (messages.length === 0) return <Text c="dimmed">No messages yet: send one below.</Text>;
  return (
    <Stack gap="xs" aria-live="polite" data-testid="messages">
      {messages.map((m, i) => {
        const role = ROLE[m.type] ?? { label: m.type, color: 'gray' };
        const calls = m.type === 'ai' ? (m.tool_calls ?? []) : [];
        return (
          <Paper key={m.id ?? i} withBorder p="xs" data-testid={`message-${m.type}`}>
            <Group gap="xs" mb={4}>
              <Badge size="xs" color={role.color} variant="light">
                {role.label}
              </Badge>
              {m.type === 'tool' && m.name && (
                <Text size="xs" c="dimmed">
                  {m.name}
                </Text>
              )}
            </Group>
            {textOf(m.content) && (
              <Text size="sm" style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}>
                {textOf(m.content)}
              </Text>
            )}
            {calls.map((call, j) => (
              <Code key={call.id ?? j} block mt={4}>
                {`${call.name}(${JSON.stringify(call.args)})`}
              </Code>
            ))}
          </Paper>
        );
      })}
    </Stack>
  );
}
