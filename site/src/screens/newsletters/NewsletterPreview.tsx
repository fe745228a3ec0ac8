import './newsletters.css';
import { Alert, Button, Flex, Loader, Text } from '@aws-amplify/ui-react';
import { useEffect, useState } from 'react';
import { getPreview, previewDraft, type NewsletterPreview as Preview } from '../../api/newsletters';
import { messageOf } from '../../api/http';
import type { Envelope } from '../../api/types';
import { Modal } from '../../components/Modal';
import { collectionFor, type ApiRecord } from '../../lib/collections';
import { countLines, DRAFT_NOTE, PREVIEW_TITLE, previewTitle, SAMPLE_LINK_NOTE } from './newsletter';
import { SendProgressBar } from './NewsletterState';

type Mode = 'html' | 'text';

/** usePreview loads a preview once (load is called on mount). */
function usePreview(load: () => Promise<Envelope<Preview>>) {
  const [preview, setPreview] = useState<Preview | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    load().then(
      (res) => live && setPreview(res.result),
      (err: unknown) => live && setError(messageOf(err)),
    );
    return () => {
      live = false;
    };
    // Loaded once per dialog: what it previews does not change while it is open.
  }, []);
  return { preview, error };
}

/** labelOf names a newsletter's field as its declaration does. */
function labelOf(field: string): string {
  return collectionFor('newsletters')?.fields.find((f) => f.name === field)?.label ?? field;
}

interface ViewProps {
  preview: Preview | null;
  error: string | null;
  note?: string;
  row?: ApiRecord;
  onClose: () => void;
}

/**
 * PreviewView shows a newsletter's mail as a subscriber gets it: who it is from, its subject, and
 * its HTML part in a sandboxed frame (sandbox="": no script, no form, no navigation of the panel;
 * srcdoc: nothing is fetched from the panel's origin), or its plain-text part (the toggle).
 */
function PreviewView({ preview, error, note, row, onClose }: ViewProps) {
  const [mode, setMode] = useState<Mode>('html');
  const counts = row ? countLines(row, labelOf) : [];
  return (
    <Modal title={PREVIEW_TITLE} onClose={onClose} maxWidth={860}>
      {error && (
        <Alert variation="error" role="alert" marginBottom="medium">
          {error}
        </Alert>
      )}
      {!error && !preview && (
        <Flex alignItems="center" gap="small" role="status">
          <Loader />
          <Text as="span">Loading the preview…</Text>
        </Flex>
      )}
      {preview && (
        <>
          {note && (
            <Text as="p" fontSize="small" marginBottom="small">
              {note}
            </Text>
          )}
          <dl className="newsletter-preview-meta">
            <dt>From</dt>
            <dd>{preview.fromName}</dd>
            {preview.replyTo && (
              <>
                <dt>Reply-To</dt>
                <dd>{preview.replyTo}</dd>
              </>
            )}
            <dt>Subject</dt>
            <dd>{preview.subject}</dd>
          </dl>
          <Flex gap="xs" marginBottom="small" role="group" aria-label="Version of the mail">
            <Button size="small" aria-pressed={mode === 'html'} variation={mode === 'html' ? 'primary' : undefined} onClick={() => setMode('html')}>
              HTML
            </Button>
            <Button size="small" aria-pressed={mode === 'text'} variation={mode === 'text' ? 'primary' : undefined} onClick={() => setMode('text')}>
              Plain text
            </Button>
          </Flex>
          {mode === 'html' ? (
            <iframe className="newsletter-preview-frame" sandbox="" srcDoc={preview.html} title={previewTitle(preview.subject)} />
          ) : (
            // Scrollable text: focusable so a keyboard can scroll it.
            <pre className="newsletter-preview-text" tabIndex={0} aria-label={`${previewTitle(preview.subject)}, plain text`}>
              {preview.text}
            </pre>
          )}
          <Text as="p" fontSize="small" marginTop="xs">
            {SAMPLE_LINK_NOTE}
          </Text>
          {row && row.state === 'sending' && <SendProgressBar row={row} />}
          {counts.length > 0 && (
            <ul className="newsletter-preview-counts" aria-label="Counts">
              {counts.map((c) => (
                <li key={c}>{c}</li>
              ))}
            </ul>
          )}
        </>
      )}
      <Flex justifyContent="flex-end" marginTop="medium">
        <Button onClick={onClose}>Close</Button>
      </Flex>
    </Modal>
  );
}

/** RowPreview previews a saved newsletter (the list's Preview): as it is stored, or as it was sent. */
export function RowPreview({ row, onClose }: { row: ApiRecord; onClose: () => void }) {
  const { preview, error } = usePreview(() => getPreview(row.id));
  return <PreviewView preview={preview} error={error} row={row} onClose={onClose} />;
}

/** DraftPreview previews what the edit form holds, unsaved (the form's Preview). */
export function DraftPreview({ body, onClose }: { body: Record<string, unknown>; onClose: () => void }) {
  const { preview, error } = usePreview(() => previewDraft({ subject: body.subject, content: body.content }));
  return <PreviewView preview={preview} error={error} note={DRAFT_NOTE} onClose={onClose} />;
}
