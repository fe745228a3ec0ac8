import { useState } from 'react';
import toast from 'react-hot-toast';
import { api } from './client';
import { messageOf } from './http';

/** download fetches a file the API makes (a CSV export) and hands it to the browser to save. */
export async function download(path: string): Promise<void> {
  const file = await api.file(path);
  const url = URL.createObjectURL(file.blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = file.filename;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/**
 * useDownload is a screen's "Export CSV": downloading says one is under way (the button's busy
 * state; a second press meanwhile does nothing), and a failure is a toast with the server's message.
 */
export function useDownload(): { downloading: boolean; start: (path: string) => Promise<void> } {
  const [downloading, setDownloading] = useState(false);
  const start = async (path: string) => {
    if (downloading) return;
    setDownloading(true);
    try {
      await download(path);
    } catch (err) {
      toast.error(messageOf(err));
    } finally {
      setDownloading(false);
    }
  };
  return { downloading, start };
}
