import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import toast from 'react-hot-toast';
import { mutate } from 'swr';
import { signIn } from '../../api/auth';
import { KEYS } from '../../api/hooks';
import { messageOf } from '../../api/http';
import { setSession } from '../../api/session';
import { MSG } from '../../lib/messages';

/** useLogin holds the login form state and submits it (password or 6-digit passcode). */
export function useLogin() {
  const navigate = useNavigate();
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (busy) return;
    if (!username.trim() || !password) {
      setError(MSG.fillDetails);
      toast.error(MSG.fillDetails);
      return;
    }
    setBusy(true);
    setError(null);
    try {
      const { user, token } = await signIn(username.trim(), password);
      if (!user || !token) throw new Error('incomplete login result');
      await mutate(KEYS.me, { result: user }, { revalidate: false });
      setSession(token, user);
      toast.success(MSG.loginSuccess);
      navigate('/dashboard', { replace: true });
    } catch (err) {
      const msg = messageOf(err, MSG.loginFailed);
      setError(msg);
      toast.error(msg);
      setBusy(false);
    }
  };

  return { username, setUsername, password, setPassword, busy, error, submit };
}
