import './newsletters.css';
import { Text } from '@aws-amplify/ui-react';
import type { ApiRecord } from '../../lib/collections';
import { sendProgress } from './newsletter';

/**
 * SendProgressBar is a sending newsletter's progress: "Sending: 125 of 1,040" over a bar
 * (role=progressbar). The text is not a live region: the list refreshes every few seconds and a
 * screen reader would hear every one.
 */
export function SendProgressBar({ row }: { row: ApiRecord }) {
  const p = sendProgress(row);
  if (!p) return null;
  const pct = p.total > 0 ? Math.round((p.done / p.total) * 100) : 0;
  const subject = typeof row.subject === 'string' && row.subject ? ` of “${row.subject}”` : '';
  return (
    <div className="send-progress">
      <Text as="span" fontSize="small">
        {p.text}
      </Text>
      <div
        role="progressbar"
        aria-label={`Sending progress${subject}`}
        aria-valuemin={0}
        aria-valuemax={p.total > 0 ? p.total : undefined}
        aria-valuenow={p.total > 0 ? p.done : undefined}
        aria-valuetext={p.text}
        className={`send-bar${p.total > 0 ? '' : ' send-bar--waiting'}`}
      >
        <div className="send-bar-fill" style={{ width: `${pct}%` }} />
      </div>
    </div>
  );
}

/** NewsletterState is the list's State cell: its progress while it is being sent, else the state. */
export function NewsletterState({ row }: { row: ApiRecord }) {
  if (row.state === 'sending') return <SendProgressBar row={row} />;
  return <span>{typeof row.state === 'string' && row.state ? row.state : '-'}</span>;
}
