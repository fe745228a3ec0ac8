import { Badge } from '@aws-amplify/ui-react';
import { SCHEDULE_LABELS, scheduleState } from '../lib/schedule';

const VARIATION = { scheduled: 'info', live: 'success', expired: 'warning' } as const;

/**
 * ScheduleChip shows Scheduled / Live / Expired for a record's publishAt and unpublishAt (stored
 * RFC 3339 times), worked out now as the public reads do; nothing without dates.
 */
export function ScheduleChip({ publishAt, unpublishAt }: { publishAt: unknown; unpublishAt: unknown }) {
  const state = scheduleState(publishAt, unpublishAt);
  if (!state) return null;
  return (
    <Badge variation={VARIATION[state]} className="schedule-chip" data-schedule={state}>
      {SCHEDULE_LABELS[state]}
    </Badge>
  );
}
