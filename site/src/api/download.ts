import { api } from './client';

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
