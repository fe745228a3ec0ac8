import { Button, Flex, SwitchField, Text, TextAreaField } from '@aws-amplify/ui-react';
import { useState, type FormEvent } from 'react';
import toast from 'react-hot-toast';
import { api } from '../../api/client';
import { mutateResource } from '../../api/dataProvider';
import { messageOf } from '../../api/http';
import { Modal } from '../Modal';
import { Thumbnail } from './Thumbnail';
import { ALT_HELP, ALT_REQUIRED, ALT_SAVED, altPatch, type MediaItem } from './rules';

interface FormProps {
  item: MediaItem;
  objectUrlPrefix: string;
  /** onSaved gets the record as saved. */
  onSaved: (item: MediaItem) => void;
  onCancel: () => void;
  /** The buttons' labels: the picker saves and uses the image, the library just saves. */
  submitLabel?: string;
  cancelLabel?: string;
}

/**
 * AltTextForm asks for an image's text alternative, or that it is decorative (the website then
 * writes alt=""), and saves it on the media record (PATCH /media/{id}) for every field that shows
 * the image (issue 37).
 */
export function AltTextForm({ item, objectUrlPrefix, onSaved, onCancel, submitLabel = 'Save', cancelLabel = 'Cancel' }: FormProps) {
  const [alt, setAlt] = useState(item.altText ?? '');
  const [decorative, setDecorative] = useState(item.decorative === true);
  const [error, setError] = useState('');
  const [saving, setSaving] = useState(false);

  const save = async (e: FormEvent) => {
    e.preventDefault();
    const body = altPatch(alt, decorative);
    if (!body) {
      setError(ALT_REQUIRED);
      return;
    }
    setSaving(true);
    try {
      const res = await api.patch<{ result?: MediaItem; message?: string }>(`/media/${encodeURIComponent(item.id)}`, body);
      toast.success(res?.message || ALT_SAVED);
      const saved = { ...item, ...body, ...(res?.result ?? {}) };
      void mutateResource('media', saved);
      onSaved(saved);
    } catch (err) {
      toast.error(messageOf(err));
    } finally {
      setSaving(false);
    }
  };

  return (
    <form onSubmit={save} noValidate aria-label={`Alt text of ${item.name}`} className="alt-text-form">
      <Flex gap="medium" alignItems="flex-start" wrap="wrap">
        <Thumbnail className="media-thumb alt-text-thumb" fileUrl={item.fileUrl} objectUrlPrefix={objectUrlPrefix} alt="" />
        <Flex direction="column" gap="small" flex="1" minWidth="14rem">
          <Text fontSize="small">{item.name}</Text>
          <TextAreaField
            label="Alt text"
            name="altText"
            rows={2}
            descriptiveText={ALT_HELP}
            value={alt}
            isDisabled={decorative}
            onChange={(e) => {
              setAlt(e.target.value);
              setError('');
            }}
            hasError={Boolean(error)}
            errorMessage={error}
          />
          <SwitchField
            label="Decorative (adds nothing a reader needs)"
            labelPosition="end"
            isChecked={decorative}
            onChange={(e) => {
              setDecorative(e.target.checked);
              setError('');
            }}
          />
        </Flex>
      </Flex>
      <Flex justifyContent="flex-end" gap="small" marginTop="medium">
        <Button type="button" onClick={onCancel} isDisabled={saving}>
          {cancelLabel}
        </Button>
        <Button type="submit" variation="primary" isLoading={saving} loadingText="Please wait...">
          {submitLabel}
        </Button>
      </Flex>
    </form>
  );
}

/** AltTextDialog is AltTextForm in a dialog (the Media Library's "Alt text" and after an upload there). */
export function AltTextDialog({ item, objectUrlPrefix, onClose }: { item: MediaItem; objectUrlPrefix: string; onClose: () => void }) {
  return (
    <Modal title={`Alt text: ${item.name}`} onClose={onClose} maxWidth={640}>
      <AltTextForm item={item} objectUrlPrefix={objectUrlPrefix} onSaved={onClose} onCancel={onClose} />
    </Modal>
  );
}

/** AltStatus says in words whether an image has alt text, is decorative, or still needs one. */
export function AltStatus({ item }: { item: MediaItem }) {
  if (item.mediaType !== 'IMAGE') return null;
  if (item.decorative) return <Text className="media-alt" fontSize="small">Decorative</Text>;
  if (item.altText) return <Text className="media-alt" fontSize="small" title={item.altText}>Alt: {item.altText}</Text>;
  return (
    <Text className="media-alt media-alt--missing" fontSize="small">
      No alt text
    </Text>
  );
}
