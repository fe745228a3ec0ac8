import { Alert, Button, Flex, Text } from '@aws-amplify/ui-react';
import { useId, useRef, useState, type DragEvent } from 'react';
import { formatBytes } from '../../lib/format';
import { inputAccept, type Accept, type MediaItem } from './rules';
import { useUpload } from './useUpload';
import './media.css';

interface Props {
  accept: Accept;
  onUploaded: (item: MediaItem) => void;
}

/** UploadArea: drag a file or choose one, then Upload ('Please wait...' while working) with a progress bar. */
export function UploadArea({ accept, onUploaded }: Props) {
  const upload = useUpload(accept);
  const inputId = useId();
  const inputRef = useRef<HTMLInputElement>(null);
  const [dragging, setDragging] = useState(false);

  const choose = (files: FileList | null) => {
    upload.setFile(files?.[0] ?? null);
    if (inputRef.current) inputRef.current.value = '';
  };
  const onDrop = (e: DragEvent) => {
    e.preventDefault();
    setDragging(false);
    if (!upload.busy) choose(e.dataTransfer.files);
  };
  const onUpload = async () => {
    const item = await upload.start();
    if (item) onUploaded(item);
  };

  return (
    <div className="upload-area">
      <label
        htmlFor={inputId}
        className={`drop-zone${dragging ? ' drop-zone--over' : ''}`}
        onDragOver={(e) => {
          e.preventDefault();
          setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={onDrop}
      >
        <Text as="span" fontWeight="bold">
          Drag a file here or click to choose one
        </Text>
        <Text as="span" fontSize="small" color="font.secondary">
          {accept === 'image' ? 'PNG, JPEG, GIF or WebP images' : 'Any file'} up to 5 MB
        </Text>
        <input
          id={inputId}
          ref={inputRef}
          type="file"
          className="visually-hidden-input"
          aria-label="Choose a file"
          accept={inputAccept(accept)}
          disabled={upload.busy}
          onChange={(e) => choose(e.target.files)}
        />
      </label>
      <Flex alignItems="center" gap="medium" wrap="wrap" marginTop="small">
        <Text className="chosen-file" flex="1" minWidth="10rem">
          {upload.file ? `${upload.file.name} (${formatBytes(upload.file.size)})` : 'No file chosen'}
        </Text>
        <Button
          variation="primary"
          onClick={onUpload}
          isDisabled={!upload.canUpload}
        >
          {upload.busy ? 'Please wait...' : 'Upload'}
        </Button>
      </Flex>
      {upload.progress !== null && (
        <div className="upload-progress">
          <progress aria-label="Upload progress" max={1} value={upload.progress} />
          <Text as="span" fontSize="small">
            {Math.round(upload.progress * 100)}%
          </Text>
        </div>
      )}
      {upload.error && (
        <Alert variation="error" marginTop="small" role="alert" className="upload-error">
          {upload.error}
        </Alert>
      )}
    </div>
  );
}
