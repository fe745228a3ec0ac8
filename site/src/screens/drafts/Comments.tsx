import { Button, Flex, Heading, Text, TextAreaField } from '@aws-amplify/ui-react';
import { useState } from 'react';
import toast from 'react-hot-toast';
import useSWR from 'swr';
import { swrFetcher } from '../../api/client';
import { addComment, type DraftComment } from '../../api/drafts';
import { messageOf } from '../../api/http';
import type { Envelope } from '../../api/types';
import { formatDateTime } from '../../lib/format';

/** commentsKey is the swr key of a record's comment thread (request changes adds to it too). */
export const commentsKey = (c: string, id: string) => `/${encodeURIComponent(c)}/${encodeURIComponent(id)}/comments`;

/** CommentsThread is a record's comments, oldest first, and a box to add one (for those who may edit or publish). */
export function CommentsThread({ collection, id, canComment }: { collection: string; id: string; canComment: boolean }) {
  const key = commentsKey(collection, id);
  const { data, error, mutate } = useSWR<Envelope<DraftComment[]>>(key, swrFetcher);
  const [text, setText] = useState('');
  const [busy, setBusy] = useState(false);
  const [fieldError, setFieldError] = useState('');
  const list = data?.result ?? [];
  const send = async () => {
    if (!text.trim()) {
      setFieldError('Write a comment first.');
      return;
    }
    setBusy(true);
    try {
      const res = await addComment(collection, id, text.trim());
      toast.success(res.message ?? 'Comment added!');
      setText('');
      await mutate();
    } catch (err) {
      toast.error(messageOf(err));
    } finally {
      setBusy(false);
    }
  };
  return (
    <section className="draft-comments" aria-label="Comments">
      <Heading level={4}>Comments{list.length ? ` (${list.length})` : ''}</Heading>
      {error && <Text color="font.error">Could not load the comments.</Text>}
      {!error && data && list.length === 0 && <Text color="font.secondary">No comments yet.</Text>}
      {list.length > 0 && (
        <ol className="draft-comment-list">
          {list.map((c) => (
            <li key={c.id}>
              <Text fontSize="small" color="font.secondary">
                {c.byName || 'someone'} on {formatDateTime(c.at)}
              </Text>
              <Text className="draft-comment-text">{c.comment}</Text>
            </li>
          ))}
        </ol>
      )}
      {canComment && (
        <Flex direction="column" gap="xs" marginTop="xs">
          <TextAreaField
            label="Add a comment"
            rows={2}
            value={text}
            maxLength={5000}
            onChange={(e) => {
              setText(e.target.value);
              setFieldError('');
            }}
            hasError={!!fieldError}
            errorMessage={fieldError}
          />
          <Flex justifyContent="flex-end">
            <Button size="small" onClick={() => void send()} isLoading={busy} loadingText="Please wait...">
              Comment
            </Button>
          </Flex>
        </Flex>
      )}
    </section>
  );
}
