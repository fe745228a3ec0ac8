import { Alert, Button, Card, Flex, Heading, Loader, Text, TextField } from '@aws-amplify/ui-react';
import { lazy, Suspense } from 'react';
import { Link, useLocation } from 'react-router';
import { useApp } from '../../app/AppContext';
import { Footer } from '../../shell/Footer';
import { ThemeToggle } from '../../shell/ThemeToggle';
import { TenantMark } from '../../shell/TenantBrand';
import { useLogin } from './useLogin';

// The second step (and the QR code drawing of a set-up) loads only for the users who need it.
const SecondStep = lazy(() => import('./SecondStep').then((m) => ({ default: m.SecondStep })));

export function LoginScreen() {
  const { tenant, tenantError, bootError } = useApp();
  const { username, setUsername, password, setPassword, busy, error, submit, pending, finish, back } = useLogin();
  const blocked = Boolean(tenantError || bootError);
  // A message handed over by the screen that led here (a password just changed by a reset link).
  const notice = (useLocation().state as { message?: unknown } | null)?.message;

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
            Admin Login
          </Heading>
          {blocked && (
            <Alert variation="error" role="alert">
              {tenantError ?? bootError}
            </Alert>
          )}
          {typeof notice === 'string' && notice && !pending && (
            <Alert variation="success" role="status">
              {notice}
            </Alert>
          )}
          {pending ? (
            <Suspense fallback={<Loader aria-label="Loading" />}>
              <SecondStep step={pending} finish={finish} back={back} />
            </Suspense>
          ) : (
          <form onSubmit={submit} noValidate>
            <Flex direction="column" gap="medium">
              <TextField
                label="Username"
                name="username"
                autoComplete="username"
                value={username}
                onChange={(e) => setUsername(e.target.value)}
                isDisabled={blocked}
              />
              <TextField
                label="Password"
                name="password"
                type="password"
                autoComplete="current-password"
                placeholder="Password, or passcode for an existing account"
                value={password}
                onChange={(e) => setPassword(e.target.value)}
                isDisabled={blocked}
              />
              {error && !blocked && (
                <Text color="font.error" role="alert">
                  {error}
                </Text>
              )}
              <Button type="submit" variation="primary" isDisabled={busy || blocked} isFullWidth>
                {busy ? 'Please wait...' : 'Login'}
              </Button>
              <Link to="/forgot-password" className="login-forgot">
                Forgot password?
              </Link>
            </Flex>
          </form>
          )}
        </Flex>
      </Card>
      <Footer />
    </main>
  );
}
