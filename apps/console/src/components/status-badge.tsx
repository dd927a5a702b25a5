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
    // Never cut in a narrow table column: the status is the point of the cell.
    <Badge color={colorOf(status)} variant="light" data-testid="status" style={{ minWidth: 'max-content', flexShrink: 0 }}>
      {status}
    </Badge>
  );
}
