import { Badge } from '@mantine/core';

function colorOf(status: string): string {
  const s = status.toLowerCase();
  if (s.includes('fail') || s === 'error' || s === 'timedout' || s.includes('timeout')) return 'red';
  if (s === 'deployed' || s === 'ready' || s === 'completed' || s === 'success' || s === 'idle') return 'green';
  if (s === 'cancelled' || s === 'interrupted' || s === 'skipped' || s === 'unused') return 'gray';
  return 'blue';
}

export function StatusBadge({ status }: { status: string }) {
  return (
    <Badge color={colorOf(status)} variant="light" data-testid="status">
      {status}
    </Badge>
  );
}
