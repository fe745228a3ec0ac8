/**
 * The three steps of an upload (DESIGN §5): ask the API for a presigned POST, post the file
 * straight to S3 with progress, then confirm so the server checks it and stores the record.
 */
import { dataProvider } from '../../api/dataProvider';
import { HttpError, messageOf } from '../../api/http';
import { checkUploadFile, formEntries, s3ErrorMessage, type Accept, type MediaItem } from './rules';

interface UploadTicket {
  url: string;
  fields: Record<string, string>;
  key: string;
  expiresAt: string;
}

/** UploadError carries a message meant for the user. */
export class UploadError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UploadError';
  }
}

/**
 * postToS3 sends the file with the presigned form. This is the only network call outside the
 * fetch module (api/http.ts): it goes to the media bucket, not our API, and it needs
 * XMLHttpRequest because fetch reports no upload progress.
 */
function postToS3(ticket: UploadTicket, file: File, onProgress: (fraction: number) => void): Promise<void> {
  return new Promise((resolve, reject) => {
    const form = new FormData();
    for (const [k, v] of formEntries(ticket.fields)) form.append(k, v);
    form.append('file', file);
    const xhr = new XMLHttpRequest();
    xhr.open('POST', ticket.url);
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable) onProgress(e.loaded / e.total);
    };
    xhr.onload = () => {
      if (xhr.status >= 200 && xhr.status < 300) {
        onProgress(1);
        resolve();
      } else {
        reject(new UploadError(s3ErrorMessage(xhr.status, xhr.responseText)));
      }
    };
    xhr.onerror = () => reject(new UploadError(s3ErrorMessage(0, '')));
    xhr.send(form);
  });
}

/** uploadFile runs the whole upload of one file and returns the stored media record. */
export async function uploadFile(file: File, accept: Accept, onProgress: (fraction: number) => void): Promise<MediaItem> {
  const problem = checkUploadFile(file, accept);
  if (problem) throw new UploadError(problem);
  try {
    const { result: ticket } = await dataProvider.create<UploadTicket>('media/uploads', {
      name: file.name,
      size: file.size,
      mimeType: file.type || 'application/octet-stream',
    });
    onProgress(0);
    await postToS3(ticket, file, onProgress);
    const { result } = await dataProvider.create<MediaItem>('media', { key: ticket.key, name: file.name });
    return result;
  } catch (err) {
    if (err instanceof UploadError) throw err;
    if (err instanceof HttpError) throw new UploadError(messageOf(err, 'The upload failed. Please try again.'));
    throw err;
  }
}
