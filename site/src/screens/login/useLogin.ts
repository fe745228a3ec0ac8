import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import toast from 'react-hot-toast';
import { mutate } from 'swr';
import { signIn } from '../../api/auth';
import { KEYS } from '../../api/hooks';
import { messageOf } from '../../api/http';
import { setSession } from '../../api/session';
import { isSecondStep, type SecondStep, type SignedIn } from '../../api/types';
import { MSG } from '../../lib/messages';

/**
 * useLogin holds the login form state and submits it (password or 6-digit passcode). A user with
 * two-factor sign-in gets a second step (pending): a code, or setting it up when required.
 */
export function useLogin() {
  const navigate = useNavigate();
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState<SecondStep | null>(null);

  const finish = async ({ user, token }: SignedIn) => {
    if (!user || !token) throw new Error('incomplete login result');
    await mutate(KEYS.me, { result: user }, { revalidate: false });
    setSession(token, user);
    toast.success(MSG.loginSuccess);
    navigate('/dashboard', { replace: true });
  };

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
      const result = await signIn(username.trim(), password);
      if (isSecondStep(result)) {
        setPending(result);
        setBusy(false);
        return;
      }
      await finish(result);
    } catch (err) {
      const msg = messageOf(err, MSG.loginFailed);
      setError(msg);
      toast.error(msg);
      setBusy(false);
    }
  };

  /** back leaves the second step for the first (a new sign-in). */
  const back = () => {
    setPending(null);
    setPassword('');
    setError(null);
  };

  return { username, setUsername, password, setPassword, busy, error, submit, pending, finish, back };
}
