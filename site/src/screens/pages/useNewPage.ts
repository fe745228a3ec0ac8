import { useState, type FormEvent } from 'react';
import toast from 'react-hot-toast';
import { useNavigate } from 'react-router';
import { dataProvider, mutateResource } from '../../api/dataProvider';
import { HttpError } from '../../api/http';
import { PAGE_MSG } from './messages';
import { createDraft } from '../../api/drafts';
import { useApp } from '../../app/AppContext';
import { collectionFor } from '../../lib/collections';
import { hasPermission } from '../../lib/permissions';

/** useNewPage drives the 'Add Page' form: title (required) and description, then the editor. */
export function useNewPage() {
  const navigate = useNavigate();
  // Issue 36: without the publish right a new page starts as a draft (POST /pages/draft), on no
  // read path until it is published.
  const { user } = useApp();
  const asDraft = !!collectionFor('pages')?.workflow && !hasPermission(user, 'CMS_PUBLISH_PAGE');
  const [title, setTitle] = useState('');
  const [description, setDescription] = useState('');
  const [error, setError] = useState('');
  const [saving, setSaving] = useState(false);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (saving) return;
    if (!title.trim()) {
      setError(PAGE_MSG.titleRequired);
      toast.error(PAGE_MSG.titleRequired);
      return;
    }
    setSaving(true);
    try {
      const body = { title: title.trim(), description };
      const res = asDraft ? await createDraft('pages', body) : await dataProvider.create<{ id: string }>('pages', body);
      toast.success(asDraft ? (res.message ?? 'Draft saved!') : PAGE_MSG.created);
      void mutateResource('pages');
      navigate(`/pages/${encodeURIComponent(res.result.id)}`);
    } catch (err) {
      // SPEC §8: the server's message, else 'Error in creating page!' as a success-type toast.
      if (err instanceof HttpError && err.message) {
        setError(err.errors.title ?? '');
        toast.error(err.message);
      } else {
        toast.success(PAGE_MSG.createFailed);
      }
    } finally {
      setSaving(false);
    }
  };

  return { title, setTitle: (v: string) => (setTitle(v), setError('')), description, setDescription, error, saving, submit };
}
