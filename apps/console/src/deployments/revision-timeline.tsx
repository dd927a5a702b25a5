import { Text, Timeline } from '@mantine/core';
import type { Revision, RevisionStatus } from '../api/types';
import { formatTime } from '../components/time';

// The statuses a revision walks through, in order (external_docker skips the build).
const STEPS: RevisionStatus[] = ['CREATING', 'QUEUED', 'AWAITING_BUILD', 'BUILDING', 'AWAITING_DEPLOY', 'DEPLOYING', 'DEPLOYED'];
const FAILED_AT: Partial<Record<RevisionStatus, RevisionStatus>> = {
  CREATE_FAILED: 'CREATING',
  BUILD_FAILED: 'BUILDING',
  DEPLOY_FAILED: 'DEPLOYING',
};

/** Where a revision stands on its way to DEPLOYED: steps done, the current one, or where it failed or stopped. */
export function RevisionTimeline({ revision }: { revision: Revision }) {
  const status = revision.status as RevisionStatus;
  const failedAt = FAILED_AT[status];
  const index = STEPS.indexOf(failedAt ?? status);
  const stopped = index < 0; // INTERRUPTED, SKIPPED, REPLACED…
  return (
    <Timeline active={stopped ? -1 : index} bulletSize={14} lineWidth={2} aria-label="Revision status timeline">
      {STEPS.map((step, i) => {
        const failedHere = failedAt === step;
        return (
          <Timeline.Item key={step} title={failedHere ? status : step} color={failedHere ? 'red' : undefined} lineVariant={i >= index ? 'dashed' : 'solid'}>
            {i === index && (
              <Text size="xs" c={failedHere ? 'red' : 'dimmed'} style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}>
                {revision.status_message ?? formatTime(revision.updated_at)}
              </Text>
            )}
          </Timeline.Item>
        );
      })}
      {stopped && (
        <Timeline.Item title={status} color="gray">
          <Text size="xs" c="dimmed">
            {revision.status_message ?? formatTime(revision.updated_at)}
          </Text>
        </Timeline.Item>
      )}
    </Timeline>
  );
}
