import { Alert, Button, Card, Flex, Heading, Text, TextField } from '@aws-amplify/ui-react';
import { useRef, useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { useApp } from '../../app/AppContext';
import { messageOf } from '../../api/http';
import { requestPasswordReset } from '../../api/passwordReset';
import { Footer } from '../../shell/Footer';
import { ThemeToggle } from '../../shell/ThemeToggle';
import { TenantMark } from '../../shell/TenantBrand';

/**
 * ForgotPasswordScreen asks for a username or email and shows the server's one answer, the same
 * whether or not the account exists (issue 33).
 */
export function ForgotPasswordScreen() {
  const { tenant, tenantError, bootError } = useApp();
  const blocked = Boolean(tenantError || bootError);
  const [name, setName] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [sent, setSent] = useState<string | null>(null);
  const input = useRef<HTMLInputElement>(null);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (busy) return;
    if (!name.trim()) {
      setError('Enter your username or email.');
      input.current?.focus();
      return;
    }
    setBusy(true);
    setError(null);
    try {
      setSent(await requestPasswordReset(name.trim()));
    } catch (err) {
      setError(messageOf(err));
      input.current?.focus();
    } finally {
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
            Forgot password?
          </Heading>
          {blocked && (
            <Alert variation="error" role="alert">
              {tenantError ?? bootError}
            </Alert>
          )}
          {sent ? (
            <Flex direction="column" gap="medium">
              <Alert variation="success" role="status">
                {sent}
              </Alert>
              <Text>The link in the email works once, for 30 minutes.</Text>
            </Flex>
          ) : (
            <form onSubmit={submit} noValidate aria-describedby="forgot-help">
              <Flex direction="column" gap="medium">
                <Text id="forgot-help">We will email a link to choose a new password.</Text>
                <TextField
                  ref={input}
                  label="Username or email"
                  name="username"
                  autoComplete="username"
                  value={name}
                  onChange={(e) => setName(e.target.value)}
                  isDisabled={blocked}
                  hasError={Boolean(error)}
                  errorMessage={error ?? undefined}
                />
                <Button type="submit" variation="primary" isDisabled={busy || blocked} isFullWidth>
                  {busy ? 'Please wait...' : 'Send the link'}
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
