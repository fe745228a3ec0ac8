import { useState } from 'react';
import toast from 'react-hot-toast';
import { mutate } from 'swr';
import { api } from '../../api/client';
import { DASHBOARD_KEY, mutateResource } from '../../api/dataProvider';
import { messageOf } from '../../api/http';
import { MSG_DELETED, MSG_LINK_COPIED, MSG_UPLOADED, type MediaItem } from '../../components/media-picker/rules';
import { MEDIA_PAGE_SIZE, useMediaLibrary } from '../../components/media-picker/useMediaLibrary';
import { mediaUrl } from '../../lib/format';
import { inUseMessage, removePath } from './inUse';

/** copyText writes to the clipboard, falling back to a hidden textarea where the API is missing. */
async function copyText(text: string): Promise<void> {
  if (navigator.clipboard?.writeText) {
    await navigator.clipboard.writeText(text);
    return;
  }
  const area = document.createElement('textarea');
  area.value = text;
  area.setAttribute('readonly', '');
  area.style.position = 'fixed';
  area.style.opacity = '0';
  document.body.appendChild(area);
  area.select();
  const ok = document.execCommand('copy');
  area.remove();
  if (!ok) throw new Error('copy refused');
}

/** useMediaScreen drives the Media Library: paging, search, upload reload, copy link and delete. */
export function useMediaScreen(objectUrlPrefix: string) {
  const lib = useMediaLibrary('file', MEDIA_PAGE_SIZE);
  const [deleting, setDeleting] = useState<string | null>(null);

  const onUploaded = async () => {
    toast.success(MSG_UPLOADED);
    await mutateResource('media');
  };

  /** linkOf is the absolute address of a file, as served under /media/*. */
  const linkOf = (item: MediaItem) => new URL(mediaUrl(item.fileUrl, objectUrlPrefix), window.location.origin).href;

  const copyLink = async (item: MediaItem) => {
    try {
      await copyText(linkOf(item));
      toast.success(MSG_LINK_COPIED);
    } catch {
      toast.error('Could not copy the link.');
    }
  };

  /**
   * remove deletes a file (force: even though records show it). A file still in use is not
   * deleted: the server's question is returned, for the screen to ask before forcing.
   */
  const remove = async (item: MediaItem, force = false): Promise<string | null> => {
    if (deleting) return null;
    setDeleting(item.id);
    try {
      const res = await api.del<{ message?: string }>(removePath(item.id, force));
      toast.success(res?.message || MSG_DELETED);
      void mutate(DASHBOARD_KEY);
      await mutateResource('media');
    } catch (err) {
      const inUse = force ? null : inUseMessage(err);
      if (inUse) return inUse;
      toast.error(messageOf(err, 'Some error occured'));
    } finally {
      setDeleting(null);
    }
    return null;
  };

  return { ...lib, deleting, onUploaded, linkOf, copyLink, remove };
}
