import { useState } from 'react';
import { UploadError, uploadFile } from './upload';
import { checkUploadFile, type Accept, type MediaItem } from './rules';

/**
 * useUpload holds the upload area's state: the chosen file, the progress (null when idle), the
 * busy flag that blocks double submission, and the last failure's message, shown to the user
 * (SPEC only logs upload failures; a user should see why).
 */
export function useUpload(accept: Accept) {
  const [file, setFileState] = useState<File | null>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  // A chosen file that breaks a rule (size, image-only) cannot be uploaded; the reason shows at once.
  const invalid = file ? checkUploadFile(file, accept) : null;

  const setFile = (f: File | null) => {
    setFileState(f);
    setProgress(null);
    setError(null);
  };

  /** start uploads the chosen file; it resolves to the record, or null on failure (error is set). */
  const start = async (): Promise<MediaItem | null> => {
    if (!file || busy || invalid) return null;
    setBusy(true);
    setError(null);
    setProgress(0);
    try {
      const item = await uploadFile(file, accept, setProgress);
      setFileState(null);
      return item;
    } catch (err) {
      console.error('upload failed', err);
      setError(err instanceof UploadError ? err.message : 'The upload failed. Please try again.');
      return null;
    } finally {
      setBusy(false);
      setProgress(null);
    }
  };

  return { file, setFile, progress, busy, error: error ?? invalid, canUpload: Boolean(file) && !busy && !invalid, start };
}
