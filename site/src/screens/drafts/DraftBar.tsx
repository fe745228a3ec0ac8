import { Alert, Badge, Button, Flex, Text, TextAreaField, TextField } from '@aws-amplify/ui-react';
import { useState } from 'react';
import toast from 'react-hot-toast';
import { mutate } from 'swr';
import { api } from '../../api/client';
import { approveDraft, discardDraft, publishDraft, requestChanges, submitDraft } from '../../api/drafts';
import { messageOf } from '../../api/http';
import type { Envelope } from '../../api/types';
import { useApp } from '../../app/AppContext';
import { Comparison } from '../../components/history/HistoryPanel';
import { Modal } from '../../components/Modal';
import { useConfirm } from '../../components/useConfirm';
import { hasPermission } from '../../lib/permissions';
import type { CollectionDecl } from '../../lib/collections';
import { formatDateTime } from '../../lib/format';
import { fromLocalInput } from '../../lib/schedule';
import { CommentsThread, commentsKey } from './Comments';
import { draftCompareRows } from './compare';
import {
  actionLabels,
  draftActions,
  publishAtError,
  requestChangesError,
  rightsFor,
  stateLabel,
  stepLabel,
  type Draft,
  type DraftAction,
  type DraftAnswer,
  type DraftState,
} from './workflow';
import './drafts.css';

const BADGE: Record<DraftState, 'info' | 'warning' | 'success' | 'error'> = {
  draft: 'info',
  in_review: 'warning',
  approved: 'success',
  changes_requested: 'error',
};

/** SaveStatus is where the editor's copy stands against the saved draft. */
export type SaveStatus = 'saving' | 'unsaved' | 'saved';

interface Props {
  decl: CollectionDecl;
  id: string;
  answer: DraftAnswer;
  /** editsDraft: the editor's saves go to the draft (else it edits the live record). */
  editsDraft: boolean;
  status: SaveStatus;
  /** flush saves what the editor holds to the draft before a step: the draft's version then, or null when it could not. */
  flush: () => Promise<number | null>;
  /** onDraft takes a step's answer (the draft's new state and version). */
  onDraft: (d: Draft) => void;
  /** onDone reloads the editor once the draft is published or discarded (gone: the record is gone too). */
  onDone: (what: 'published' | 'discarded' | 'scheduled', gone: boolean) => void;
  /** preview: pages preview their draft as the site would show it. */
  preview?: boolean;
  /** conflict is a refused save's message (someone else saved the draft first); onReload takes theirs. */
  conflict?: string;
  onReload?: () => void;
}

/**
 * DraftBar is the draft's state and its steps (who, when, comment), the buttons the user's rights
 * and the state allow (Submit for review, Approve, Request changes, Publish now or at a time,
 * Discard draft, Preview draft), the reviewer's compare with the live record, and the comments.
 */
export function DraftBar({ decl, id, answer, editsDraft, status, flush, onDraft, onDone, preview = false, conflict = '', onReload }: Props) {
  const { user, tenant } = useApp();
  const draft = answer.draft;
  const rights = rightsFor(user, decl.category, answer);
  const actions = draftActions(draft, rights);
  const [busy, setBusy] = useState<DraftAction | 'preview' | null>(null);
  const [asking, setAsking] = useState<'requestChanges' | 'publish' | null>(null);
  const [comparing, setComparing] = useState(false);
  const [confirm, confirmDialog] = useConfirm();
  const canComment = hasPermission(user, `CMS_VIEW_${decl.category}`) && (rights.canEdit || rights.canPublish);

  const run = async (action: DraftAction, call: (version: number) => Promise<Envelope<unknown>>) => {
    if (!draft) return;
    setBusy(action);
    try {
      // What the editor holds is saved first: a step applies to the draft as it is on screen.
      const version = await flush();
      if (version === null) return;
      const res = await call(version);
      toast.success(res.message ?? 'Done.');
      setAsking(null);
      if (action === 'discard') onDone('discarded', !!draft.isNew);
      else if (action === 'publish') {
        const r = res.result as Partial<Draft>;
        if (r && typeof r.state === 'string' && r.publishAt) {
          onDraft(r as Draft);
          onDone('scheduled', false);
        } else onDone('published', false);
      } else {
        onDraft(res.result as Draft);
        if (action === 'requestChanges') void mutate(commentsKey(decl.key, id));
      }
    } catch (err) {
      toast.error(messageOf(err));
    } finally {
      setBusy(null);
    }
  };

  const onAction = async (action: DraftAction) => {
    switch (action) {
      case 'submit':
        return run(action, (v) => submitDraft(decl.key, id, v));
      case 'approve':
        return run(action, (v) => approveDraft(decl.key, id, v));
      case 'requestChanges':
      case 'publish':
        if ((await flush()) !== null) setAsking(action);
        return;
      case 'discard': {
        const q = draft?.isNew
          ? `Discard this draft? This ${decl.title.toLowerCase()} was never published: it is deleted.`
          : 'Discard this draft? The published version stays as it is.';
        if (await confirm(q)) await run(action, () => discardDraft(decl.key, id));
      }
    }
  };

  const openPreview = async () => {
    const site = tenant?.websiteUrl ?? '';
    if ((await flush()) === null) return;
    setBusy('preview');
    const win = window.open('about:blank', '_blank');
    try {
      const res = await api.post<Envelope<{ path: string }>>(`/pages/${encodeURIComponent(id)}/preview`, { draft: true });
      if (win) win.location.href = site + res.result.path;
      else window.location.assign(site + res.result.path);
    } catch (err) {
      win?.close();
      toast.error(messageOf(err));
    } finally {
      setBusy(null);
    }
  };

  if (!draft && !editsDraft) {
    return <CommentsThread collection={decl.key} id={id} canComment={canComment} />;
  }
  const last = draft?.steps?.[draft.steps.length - 1];
  return (
    <section className="draft-bar" aria-label="Draft">
      {conflict && (
        <Alert variation="warning" role="alert" marginBottom="small">
          <Flex alignItems="center" gap="small" wrap="wrap">
            <span>{conflict} Your changes are still here: copy what you need, then reload.</span>
            {onReload && (
              <Button size="small" onClick={onReload}>
                Reload
              </Button>
            )}
          </Flex>
        </Alert>
      )}
      {!draft ? (
        <Text className="draft-status">
          Your changes are saved as a draft: the website keeps showing the published version until the draft is published.
        </Text>
      ) : (
        <>
          <Flex alignItems="center" gap="small" wrap="wrap">
            <Badge variation={BADGE[draft.state]}>{stateLabel(draft.state)}</Badge>
            <Text className="draft-status" role="status">
              {status === 'saving' ? 'Saving draft…' : status === 'unsaved' ? 'Unsaved changes' : `Draft saved ${draft.updatedAt ? formatDateTime(draft.updatedAt) : ''}${draft.updatedByName ? ` by ${draft.updatedByName}` : ''}`}
            </Text>
            {draft.isNew && <Text className="draft-status">Never published</Text>}
          </Flex>
          {draft.publishAt && <Text className="draft-status">Will be published on {formatDateTime(draft.publishAt)}.</Text>}
          {draft.state === 'changes_requested' && last?.comment && (
            <Alert variation="warning" marginTop="xs" heading={`Changes requested by ${last.byName || 'a reviewer'}`}>
              <span className="draft-comment-text">{last.comment}</span>
            </Alert>
          )}
          {(draft.steps?.length ?? 0) > 0 && (
            <details className="draft-steps-box">
              <summary>Steps ({draft.steps!.length})</summary>
              <ol className="draft-steps">
                {draft.steps!.map((s, i) => (
                  <li key={i}>
                    {stepLabel(s.step)} by {s.byName || 'someone'} on {formatDateTime(s.at)}
                    {s.comment ? `: “${s.comment}”` : ''}
                  </li>
                ))}
              </ol>
            </details>
          )}
          <Flex gap="xs" wrap="wrap" marginTop="small">
            {actions.map((a) => (
              <Button
                key={a}
                size="small"
                variation={a === 'publish' || a === 'approve' ? 'primary' : a === 'discard' ? 'destructive' : undefined}
                onClick={() => void onAction(a)}
                isDisabled={busy !== null}
                isLoading={busy === a}
                loadingText="Please wait..."
              >
                {actionLabels[a]}
              </Button>
            ))}
            {preview && (
              <Button size="small" onClick={() => void openPreview()} isDisabled={busy !== null || !tenant?.websiteUrl}>
                Preview draft
              </Button>
            )}
            {!draft.isNew && (
              <Button size="small" variation="link" onClick={() => setComparing((c) => !c)} aria-expanded={comparing}>
                {comparing ? 'Hide the compare' : 'Compare with live'}
              </Button>
            )}
          </Flex>
          {comparing && (
            <div className="draft-compare">
              <Comparison rows={draftCompareRows(decl, answer.live, draft.fields ?? {})} keptLabel="Live" currentLabel="Draft" />
            </div>
          )}
        </>
      )}
      <CommentsThread collection={decl.key} id={id} canComment={canComment} />
      {asking === 'requestChanges' && (
        <RequestChangesDialog busy={busy === 'requestChanges'} onClose={() => setAsking(null)} onSend={(comment) => void run('requestChanges', (v) => requestChanges(decl.key, id, comment, v))} />
      )}
      {asking === 'publish' && (
        <PublishDialog
          title={draft?.title || decl.title}
          busy={busy === 'publish'}
          onClose={() => setAsking(null)}
          onPublish={(at) => void run('publish', (v) => publishDraft(decl.key, id, v, at ?? undefined))}
        />
      )}
      {confirmDialog}
    </section>
  );
}

function RequestChangesDialog({ busy, onClose, onSend }: { busy: boolean; onClose: () => void; onSend: (comment: string) => void }) {
  const [comment, setComment] = useState('');
  const [error, setError] = useState('');
  return (
    <Modal title="Request changes" onClose={onClose} maxWidth={520}>
      <form
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          const err = requestChangesError(comment);
          setError(err);
          if (!err) onSend(comment.trim());
        }}
      >
        <TextAreaField
          label="What should change?"
          rows={4}
          maxLength={5000}
          value={comment}
          onChange={(e) => {
            setComment(e.target.value);
            setError('');
          }}
          hasError={!!error}
          errorMessage={error}
        />
        <Flex gap="small" justifyContent="flex-end" marginTop="medium">
          <Button type="button" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" variation="primary" isLoading={busy} loadingText="Please wait...">
            Send back for changes
          </Button>
        </Flex>
      </form>
    </Modal>
  );
}

function PublishDialog({ title, busy, onClose, onPublish }: { title: string; busy: boolean; onClose: () => void; onPublish: (at: string | null) => void }) {
  const [at, setAt] = useState('');
  const [error, setError] = useState('');
  return (
    <Modal title={`Publish “${title}”`} onClose={onClose} maxWidth={520}>
      <Text>Publish the draft now, or choose when it goes live.</Text>
      <Flex gap="small" justifyContent="flex-end" marginTop="medium">
        <Button onClick={onClose}>Cancel</Button>
        <Button variation="primary" onClick={() => onPublish(null)} isLoading={busy && !at} loadingText="Please wait..." isDisabled={busy}>
          Publish now
        </Button>
      </Flex>
      <form
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          const err = at ? publishAtError(at) : 'Choose the date and time to publish at.';
          setError(err);
          if (!err) onPublish(fromLocalInput(at));
        }}
      >
        <Flex gap="small" alignItems="flex-end" wrap="wrap" marginTop="medium">
          <TextField
            label="Publish at"
            type="datetime-local"
            value={at}
            onChange={(e) => {
              setAt(e.target.value);
              setError('');
            }}
            hasError={!!error}
            errorMessage={error}
          />
          <Button type="submit" isDisabled={busy} isLoading={busy && !!at} loadingText="Please wait...">
            Schedule
          </Button>
        </Flex>
      </form>
    </Modal>
  );
}
