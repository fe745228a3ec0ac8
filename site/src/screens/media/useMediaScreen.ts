import { useState } from 'react';
import toast from 'react-hot-toast';
import { dataProvider, mutateResource } from '../../api/dataProvider';
import { messageOf } from '../../api/http';
import { MSG_DELETED, MSG_LINK_COPIED, MSG_UPLOADED, type MediaItem } from '../../components/media-picker/rules';
import { MEDIA_PAGE_SIZE, useMediaLibrary } from '../../components/media-picker/useMediaLibrary';
import { mediaUrl } from '../../lib/format';

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

  const remove = async (item: MediaItem) => {
    if (deleting) return;
    setDeleting(item.id);
    try {
      const res = await dataProvider.remove('media', item.id);
      toast.success(res.message || MSG_DELETED);
      await mutateResource('media');
    } catch (err) {
      toast.error(messageOf(err, 'Some error occured'));
    } finally {
      setDeleting(null);
    }
  };

  return { ...lib, deleting, onUploaded, linkOf, copyLink, remove };
}
