import { useState, type FormEvent } from 'react';
import toast from 'react-hot-toast';
import { mutate } from 'swr';
import { updateMe } from '../../api/auth';
import { KEYS } from '../../api/hooks';
import { HttpError, messageOf } from '../../api/http';
import { useApp } from '../../app/AppContext';
import { logout } from '../../app/logout';
import { MSG } from '../../lib/messages';
import {
  changesSignIn,
  checkReauth,
  NO_REAUTH,
  reauthPayload,
  toProfilePayload,
  validateProfile,
  type FieldErrors,
  type ProfileInput,
  type Reauth,
} from '../../lib/profileValidation';

const EMPTY: ProfileInput = { username: '', email: '', phone: '', password: '', passcode: '' };

/** useProfile drives the My Profile screen: view/edit mode, validation, save, logout. */
export function useProfile() {
  const { user } = useApp();
  const [editing, setEditing] = useState(false);
  const [form, setForm] = useState<ProfileInput>(EMPTY);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [saving, setSaving] = useState(false);
  const [loggingOut, setLoggingOut] = useState(false);
  const [reauth, setReauthState] = useState<Reauth>(NO_REAUTH);
  const twoFactor = Boolean(user?.twoFactor?.enabled);

  const startEdit = () => {
    setForm({ username: user?.username ?? '', email: user?.email ?? '', phone: user?.phone ?? '', password: '', passcode: '' });
    setReauthState(NO_REAUTH);
    setErrors({});
    setEditing(true);
  };

  const cancel = () => {
    setEditing(false);
    setReauthState(NO_REAUTH);
    setErrors({});
  };

  const setReauth = (next: Reauth) => {
    setReauthState(next);
    setErrors((e) => ({ ...e, currentPassword: undefined, code: undefined, recoveryCode: undefined }));
  };

  const setField = (field: keyof ProfileInput, value: string) => {
    setForm((f) => ({ ...f, [field]: value }));
    setErrors((e) => ({ ...e, [field]: undefined }));
  };

  const save = async (e: FormEvent) => {
    e.preventDefault();
    if (saving) return;
    const check = validateProfile(form);
    // A new password or passcode asks for the current password (and code): the API refuses it without.
    const again = changesSignIn(form) ? checkReauth(reauth, twoFactor) : {};
    const errors: FieldErrors = { ...check.errors, currentPassword: again.password, code: again.code };
    setErrors(errors);
    const message = check.message ?? again.password ?? again.code;
    if (message) {
      toast.error(message);
      return;
    }
    setSaving(true);
    try {
      const body = toProfilePayload(form);
      const res = await updateMe(changesSignIn(form) ? { ...body, ...reauthPayload(reauth, twoFactor, 'currentPassword') } : body);
      setReauthState(NO_REAUTH);
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

  return { user, editing, form, errors, saving, loggingOut, reauth, setReauth, twoFactor, startEdit, cancel, setField, save, logout: doLogout };
}
