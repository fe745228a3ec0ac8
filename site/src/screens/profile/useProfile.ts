import { useState, type FormEvent } from 'react';
import toast from 'react-hot-toast';
import { mutate } from 'swr';
import { updateMe } from '../../api/auth';
import { KEYS } from '../../api/hooks';
import { HttpError, messageOf } from '../../api/http';
import { useApp } from '../../app/AppContext';
import { logout } from '../../app/logout';
import { MSG } from '../../lib/messages';
import { toProfilePayload, validateProfile, type FieldErrors, type ProfileInput } from '../../lib/profileValidation';

const EMPTY: ProfileInput = { username: '', email: '', phone: '', password: '', passcode: '' };

/** useProfile drives the My Profile screen: view/edit mode, validation, save, logout. */
export function useProfile() {
  const { user } = useApp();
  const [editing, setEditing] = useState(false);
  const [form, setForm] = useState<ProfileInput>(EMPTY);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [saving, setSaving] = useState(false);
  const [loggingOut, setLoggingOut] = useState(false);

  const startEdit = () => {
    setForm({ username: user?.username ?? '', email: user?.email ?? '', phone: user?.phone ?? '', password: '', passcode: '' });
    setErrors({});
    setEditing(true);
  };

  const cancel = () => {
    setEditing(false);
    setErrors({});
  };

  const setField = (field: keyof ProfileInput, value: string) => {
    setForm((f) => ({ ...f, [field]: value }));
    setErrors((e) => ({ ...e, [field]: undefined }));
  };

  const save = async (e: FormEvent) => {
    e.preventDefault();
    if (saving) return;
    const check = validateProfile(form);
    setErrors(check.errors);
    if (check.message) {
      toast.error(check.message);
      return;
    }
    setSaving(true);
    try {
      const res = await updateMe(toProfilePayload(form));
      await mutate(KEYS.me, { result: res.result }, { revalidate: false });
      toast.success(res.message || MSG.profileUpdated);
      setEditing(false);
    } catch (err) {
      if (err instanceof HttpError) setErrors(err.errors);
      toast.error(messageOf(err, MSG.profileFailed));
    } finally {
      setSaving(false);
    }
  };

  const doLogout = async () => {
    setLoggingOut(true);
    await logout();
  };

  return { user, editing, form, errors, saving, loggingOut, startEdit, cancel, setField, save, logout: doLogout };
}
