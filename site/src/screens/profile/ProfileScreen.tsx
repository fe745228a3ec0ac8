import { Card } from '@aws-amplify/ui-react';
import { ProfileForm } from './ProfileForm';
import { ProfileView } from './ProfileView';
import { useProfile } from './useProfile';

export function ProfileScreen() {
  const p = useProfile();
  if (!p.user) return null;
  return (
    <Card variation="outlined" className="panel panel--narrow">
      {p.editing ? (
        <ProfileForm form={p.form} errors={p.errors} saving={p.saving} setField={p.setField} onSave={p.save} onCancel={p.cancel} />
      ) : (
        <ProfileView user={p.user} onEdit={p.startEdit} onLogout={p.logout} loggingOut={p.loggingOut} />
      )}
    </Card>
  );
}
