import { lazy, Suspense, type ReactNode } from 'react';
import { Navigate, Route, Routes, useLocation } from 'react-router';
import { Loader, Flex } from '@aws-amplify/ui-react';
import { hasPermission } from '../lib/permissions';
import { DashboardScreen } from '../screens/dashboard/DashboardScreen';
import { LoginScreen } from '../screens/login/LoginScreen';
import { PlaceholderScreen } from '../screens/placeholder/PlaceholderScreen';
import { NotFoundScreen } from '../screens/placeholder/NotFoundScreen';
import { Shell } from '../shell/Shell';
import { useApp } from './AppContext';
import { ALL_ROUTES, type ScreenDecl } from './navigation';
import { CollectionScreen, SCREENS, SingletonScreen } from './screens';

// The password reset screens load only for those who forgot (issue 33); they sit outside the
// signed-in layout, so a link from a mail works signed in or not.
const ForgotPasswordScreen = lazy(() => import('../screens/reset/ForgotPasswordScreen').then((m) => ({ default: m.ForgotPasswordScreen })));
const ResetPasswordScreen = lazy(() => import('../screens/reset/ResetPasswordScreen').then((m) => ({ default: m.ResetPasswordScreen })));

function outside(element: ReactNode) {
  return <Suspense fallback={<FullPageLoader />}>{element}</Suspense>;
}

function screenFor(decl: ScreenDecl) {
  if (decl.screen === 'dashboard') return <DashboardScreen />;
  const Screen = decl.screen ? SCREENS[decl.screen] : null;
  const element = Screen ? (
    <Screen />
  ) : decl.collection ? (
    <CollectionScreen key={decl.collection} collection={decl.collection} />
  ) : decl.singleton ? (
    <SingletonScreen key={decl.singleton} collection={decl.singleton} title={decl.title} />
  ) : (
    <PlaceholderScreen title={decl.title} />
  );
  return <Suspense fallback={<ScreenLoader />}>{element}</Suspense>;
}

function ScreenLoader() {
  return (
    <Flex justifyContent="center" padding="large" role="status" aria-label="Loading">
      <Loader size="large" />
    </Flex>
  );
}

function FullPageLoader() {
  return (
    <Flex className="full-page" justifyContent="center" alignItems="center" role="status" aria-label="Loading">
      <Loader size="large" />
    </Flex>
  );
}

export function AppRoutes() {
  const { authInitialised, user } = useApp();
  const location = useLocation();
  if (!authInitialised) return <FullPageLoader />;

  if (!user) {
    return (
      <Routes>
        <Route path="/login" element={<LoginScreen />} />
        <Route path="/forgot-password" element={outside(<ForgotPasswordScreen />)} />
        <Route path="/reset-password" element={outside(<ResetPasswordScreen />)} />
        <Route path="*" element={<Navigate to="/login" replace state={{ from: location.pathname }} />} />
      </Routes>
    );
  }

  return (
    <Routes>
      <Route path="/login" element={<Navigate to="/dashboard" replace />} />
      <Route path="/forgot-password" element={<Navigate to="/dashboard" replace />} />
      <Route path="/reset-password" element={outside(<ResetPasswordScreen />)} />
      <Route element={<Shell />}>
        <Route index element={<Navigate to="/dashboard" replace />} />
        {ALL_ROUTES.filter((r) => hasPermission(user, r.permission)).map((r) => (
          <Route key={r.path} path={r.path} element={screenFor(r)} />
        ))}
        <Route path="*" element={<NotFoundScreen />} />
      </Route>
    </Routes>
  );
}
