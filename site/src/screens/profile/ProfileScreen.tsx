import { Card, Flex } from '@aws-amplify/ui-react';
import { ProfileForm } from './ProfileForm';
import { ProfileView } from './ProfileView';
import { SessionsSection } from './SessionsSection';
import { TwoFactorSection } from './TwoFactorSection';
import { useProfile } from './useProfile';

export function ProfileScreen() {
  const p = useProfile();
  if (!p.user) return null;
  return (
    <Flex direction="column" gap="medium" className="panel--narrow">
      <Card variation="outlined" className="panel">
        {p.editing ? (
          <ProfileForm
            form={p.form}
            errors={p.errors}
            saving={p.saving}
            setField={p.setField}
            reauth={p.reauth}
            setReauth={p.setReauth}
            twoFactor={p.twoFactor}
            onSave={p.save}
            onCancel={p.cancel}
          />
        ) : (
          <ProfileView user={p.user} onEdit={p.startEdit} onLogout={p.logout} loggingOut={p.loggingOut} />
        )}
      </Card>
      <Card variation="outlined" className="panel">
        <TwoFactorSection user={p.user} />
      </Card>
      <Card variation="outlined" className="panel">
        <SessionsSection />
      </Card>
    </Flex>
  );
}
