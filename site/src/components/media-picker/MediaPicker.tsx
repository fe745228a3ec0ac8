import { Button, Flex, Text } from '@aws-amplify/ui-react';
import { useState } from 'react';
import toast from 'react-hot-toast';
import { mutateResource } from '../../api/dataProvider';
import { useApp } from '../../app/AppContext';
import { mediaUrl } from '../../lib/format';
import { ListBody, SearchBox } from '../ListBody';
import { Modal } from '../Modal';
import { Thumbnail } from './Thumbnail';
import { MediaGrid } from './MediaGrid';
import { AltTextForm } from './AltText';
import { MSG_UPLOADED, needsAlt, type Accept, type MediaItem } from './rules';
import { UploadArea } from './UploadArea';
import { useMediaLibrary } from './useMediaLibrary';
import './media.css';

export interface MediaPickerProps {
  /** value is the stored file reference, "{ulid}/{name}" relative to the tenant's objectUrlPrefix. */
  value: string;
  /** onChange gets the new reference and, when one was chosen or uploaded, its media record. */
  onChange: (value: string, picked?: MediaItem) => void;
  /** 'image' pickers upload and choose images only. */
  accept: Accept;
  label: string;
  errorMessage?: string;
}

const looksLikeImage = (ref: string) => /\.(png|jpe?g|gif|webp|avif|bmp|ico|heic|tiff?)$/i.test(ref);

function Library({ accept, onPick }: { accept: Accept; onPick: (item: MediaItem) => void }) {
  const { objectUrlPrefix } = useApp();
  const lib = useMediaLibrary(accept, 10);
  return (
    <div className="picker-library">
      <SearchBox label="Search the media library" size="compact" value={lib.searchInput} onChange={lib.setSearchInput} />
      <ListBody size="compact" loading={lib.loading} empty={lib.items.length === 0} error={lib.error} onRetry={lib.reload}>
        <MediaGrid
          items={lib.items}
          objectUrlPrefix={objectUrlPrefix}
          actions={(item) => (
            <Button size="small" variation="primary" onClick={() => onPick(item)} aria-label={`Choose ${item.name}`}>
              Choose
            </Button>
          )}
        />
      </ListBody>
      <Flex justifyContent="space-between" alignItems="center" marginTop="small">
        <Button size="small" onClick={() => lib.setPage(lib.page - 1)} isDisabled={lib.page <= 1}>
          Previous
        </Button>
        <Text fontSize="small">
          Page {lib.page} of {lib.last}
        </Text>
        <Button size="small" onClick={() => lib.setPage(lib.page + 1)} isDisabled={lib.page >= lib.last}>
          Next
        </Button>
      </Flex>
    </div>
  );
}

interface DialogProps {
  accept: Accept;
  /** The dialog's title. */
  title: string;
  onPick: (item: MediaItem) => void;
  onClose: () => void;
}

/**
 * MediaPickerDialog uploads a file or chooses one from the media library; the picker below and
 * the rich-text editor's image insert both open it.
 */
export function MediaPickerDialog({ accept, title, onPick, onClose }: DialogProps) {
  const { objectUrlPrefix } = useApp();
  // An image without alt text (issue 37) is described before it is used: the media record keeps it.
  const [describing, setDescribing] = useState<MediaItem | null>(null);
  const choose = (item: MediaItem) => (needsAlt(item) ? setDescribing(item) : onPick(item));
  const uploaded = (item: MediaItem) => {
    toast.success(MSG_UPLOADED);
    void mutateResource('media');
    choose(item);
  };
  if (describing) {
    return (
      <Modal title="Describe the image" onClose={onClose}>
        <AltTextForm
          item={describing}
          objectUrlPrefix={objectUrlPrefix}
          submitLabel="Save and use"
          cancelLabel="Use without alt text"
          onSaved={onPick}
          onCancel={() => onPick(describing)}
        />
      </Modal>
    );
  }
  return (
    <Modal title={title} onClose={onClose}>
      <Text fontWeight="bold" marginBottom="xs">
        Upload new
      </Text>
      <UploadArea accept={accept} onUploaded={uploaded} />
      <Text fontWeight="bold" marginTop="medium" marginBottom="xs">
        Or choose from the media library
      </Text>
      <Library accept={accept} onPick={choose} />
      <Flex justifyContent="flex-end" marginTop="medium">
        <Button onClick={onClose}>Cancel</Button>
      </Flex>
    </Modal>
  );
}

/**
 * MediaPicker edits an image or file field: it shows the current file and opens a dialog to
 * upload a new one or choose one from the media library.
 */
export function MediaPicker({ value, onChange, accept, label, errorMessage }: MediaPickerProps) {
  const { objectUrlPrefix } = useApp();
  const [open, setOpen] = useState(false);
  const url = value ? mediaUrl(value, objectUrlPrefix) : '';
  const fileName = value.split('/').pop() ?? value;

  const pick = (item: MediaItem) => {
    onChange(item.fileUrl, item);
    setOpen(false);
  };

  return (
    <div className={`media-picker${errorMessage ? ' media-picker--error' : ''}`} role="group" aria-label={label}>
      <Text as="span" className="amplify-label media-picker-label">
        {label}
      </Text>
      <Flex alignItems="center" gap="small" wrap="wrap">
        {value && (accept === 'image' || looksLikeImage(value)) ? (
          <Thumbnail className="media-picker-preview" fileUrl={value} objectUrlPrefix={objectUrlPrefix} alt={label} />
        ) : value ? (
          <a href={url} target="_blank" rel="noopener noreferrer" className="media-picker-file">
            {fileName}
          </a>
        ) : (
          <Text as="span" color="font.secondary">
            {accept === 'image' ? 'No image' : 'No file'}
          </Text>
        )}
        <Button size="small" onClick={() => setOpen(true)}>
          {value ? 'Change' : accept === 'image' ? 'Select image' : 'Select file'}
        </Button>
        {value && (
          <Button size="small" variation="link" onClick={() => onChange('')}>
            Remove
          </Button>
        )}
      </Flex>
      {errorMessage && (
        <Text className="amplify-field__error-message" color="font.error" fontSize="small">
          {errorMessage}
        </Text>
      )}
      {open && (
        <MediaPickerDialog
          accept={accept}
          title={`${accept === 'image' ? 'Choose an image' : 'Choose a file'}: ${label.replace(/\*$/, '')}`}
          onPick={pick}
          onClose={() => setOpen(false)}
        />
      )}
    </div>
  );
}
