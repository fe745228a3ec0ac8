import { Alert, Button, Card, Flex, Heading, PasswordField, Text } from '@aws-amplify/ui-react';
import { useRef, useState, type FormEvent } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { useApp } from '../../app/AppContext';
import { HttpError, messageOf } from '../../api/http';
import { confirmPasswordReset } from '../../api/passwordReset';
import { LINK_BAD, PASSWORD_RULES, validateNewPassword } from '../../lib/passwordReset';
import { Footer } from '../../shell/Footer';
import { ThemeToggle } from '../../shell/ThemeToggle';
import { TenantMark } from '../../shell/TenantBrand';

/**
 * ResetPasswordScreen is where a reset mail's link leads (/reset-password?token=…): a new
 * password under the rules, typed twice; success goes to the sign-in screen with a message, a
 * used or expired link says so and links to ask again.
 */
export function ResetPasswordScreen() {
  const { tenant } = useApp();
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const navigate = useNavigate();
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const [linkBad, setLinkBad] = useState<string | null>(token ? null : LINK_BAD);
  const passwordRef = useRef<HTMLInputElement>(null);
  const confirmRef = useRef<HTMLInputElement>(null);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (busy) return;
    const found = validateNewPassword(password, confirm);
    setErrors(found);
    if (found.password) return passwordRef.current?.focus();
    if (found.confirm) return confirmRef.current?.focus();
    setBusy(true);
    try {
      const message = await confirmPasswordReset(token, password);
      navigate('/login', { replace: true, state: { message } });
    } catch (err) {
      if (err instanceof HttpError && err.errors.token) {
        setLinkBad(err.errors.token);
      } else if (err instanceof HttpError && err.errors.password) {
        setErrors({ password: err.errors.password });
        passwordRef.current?.focus();
      } else {
        setErrors({ form: messageOf(err) });
      }
      setBusy(false);
    }
  };

  return (
    <main className="login-page">
      <ThemeToggle className="login-theme-toggle" />
      <Card variation="elevated" className="login-card">
        <Flex direction="column" gap="medium">
          <Flex alignItems="center" gap="small">
            <TenantMark size={44} />
            <Text fontWeight="bold" fontSize="large">
              {tenant?.name ?? 'Admin Panel'}
            </Text>
          </Flex>
          <Heading level={1} className="login-title">
            Choose a new password
          </Heading>
          {linkBad ? (
            <Flex direction="column" gap="medium">
              <Alert variation="error" role="alert">
                {linkBad}
              </Alert>
              <Link to="/forgot-password">Ask for a new link</Link>
            </Flex>
          ) : (
            <form onSubmit={submit} noValidate>
              <Flex direction="column" gap="medium">
                <Text id="password-rules">{PASSWORD_RULES}</Text>
                <PasswordField
                  ref={passwordRef}
                  label="New password"
                  name="password"
                  autoComplete="new-password"
                  aria-describedby="password-rules"
                  value={password}
                  onChange={(e) => setPassword(e.target.value)}
                  hasError={Boolean(errors.password)}
                  errorMessage={errors.password}
                />
                <PasswordField
                  ref={confirmRef}
                  label="Confirm new password"
                  name="confirm"
                  autoComplete="new-password"
                  value={confirm}
                  onChange={(e) => setConfirm(e.target.value)}
                  hasError={Boolean(errors.confirm)}
                  errorMessage={errors.confirm}
                />
                {errors.form && (
                  <Text color="font.error" role="alert">
                    {errors.form}
                  </Text>
                )}
                <Button type="submit" variation="primary" isDisabled={busy} isFullWidth>
                  {busy ? 'Please wait...' : 'Change password'}
                </Button>
              </Flex>
            </form>
          )}
          <Link to="/login">Back to sign in</Link>
        </Flex>
      </Card>
      <Footer />
    </main>
  );
}
