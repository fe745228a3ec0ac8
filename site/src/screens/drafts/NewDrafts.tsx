import { Badge, Button, Heading, Text } from '@aws-amplify/ui-react';
import type { ComponentType } from 'react';
import useSWR from 'swr';
import { swrFetcher } from '../../api/client';
import type { Envelope } from '../../api/types';
import type { ApiRecord, CollectionDecl } from '../../lib/collections';
import { formatDateTime, trimText } from '../../lib/format';
import { draftsListKey } from './useRecordDraft';
import { stateLabel, type Draft } from './workflow';
import './drafts.css';

/** useCollectionDrafts reads a workflow collection's drafts (GET /drafts?collection=, newest first, at most 100). */
export function useCollectionDrafts(decl: CollectionDecl): Draft[] {
  const { data } = useSWR<Envelope<Draft[]>>(decl.workflow ? draftsListKey(decl.key) : null, swrFetcher);
  return data?.result ?? [];
}

/** draftNameCell is the name column's cell of a workflow collection: the name and, when the record has a draft, its state. */
export function draftNameCell(decl: CollectionDecl, drafts: Map<string, Draft>): ComponentType<{ row: ApiRecord }> {
  return function DraftNameCell({ row }: { row: ApiRecord }) {
    const d = drafts.get(row.id);
    const text = String(row[decl.nameField] ?? '');
    const short = trimText(text);
    return (
      <>
        {text ? <span title={short === text ? undefined : text}>{short}</span> : <span className="muted">-</span>}
        {d && (
          <Badge className="draft-badge" size="small" variation={d.state === 'in_review' ? 'warning' : 'info'}>
            {stateLabel(d.state)}
          </Badge>
        )}
      </>
    );
  };
}

/**
 * NewDrafts lists a collection's new records that are still drafts (never published: in no
 * list of records), with their state, author and last save; each opens in its editor.
 */
export function NewDrafts({ decl, drafts, onOpen }: { decl: CollectionDecl; drafts: Draft[]; onOpen?: (id: string) => void }) {
  const fresh = drafts.filter((d) => d.isNew);
  if (fresh.length === 0) return null;
  const id = `new-drafts-${decl.key}`;
  return (
    <section className="new-drafts" aria-labelledby={id}>
      <Heading level={3} id={id}>
        New {decl.titlePlural.toLowerCase()} in draft ({fresh.length})
      </Heading>
      <ul>
        {fresh.map((d) => (
          <li key={d.id}>
            {onOpen ? (
              <Button size="small" variation="link" onClick={() => onOpen(d.id)}>
                {d.title || `Untitled ${decl.title.toLowerCase()}`}
              </Button>
            ) : (
              <Text as="span">{d.title || d.id}</Text>
            )}{' '}
            <Badge size="small" variation={d.state === 'in_review' ? 'warning' : 'info'}>
              {stateLabel(d.state)}
            </Badge>{' '}
            <Text as="span" fontSize="small" color="font.secondary">
              by {d.authorName || 'someone'}
              {d.updatedAt ? `, saved ${formatDateTime(d.updatedAt)}` : ''}
            </Text>
          </li>
        ))}
      </ul>
    </section>
  );
}
