import { Button, Flex, Heading, Text } from '@aws-amplify/ui-react';
import type { User } from '../../api/types';

interface Props {
  user: User;
  onEdit: () => void;
  onLogout: () => void;
  loggingOut: boolean;
}

function Row({ label, value }: { label: string; value: string }) {
  return (
    <div className="profile-row">
      <dt>{label}</dt>
      <dd>{value || '—'}</dd>
    </div>
  );
}

export function ProfileView({ user, onEdit, onLogout, loggingOut }: Props) {
  const fullName = [user.firstName, user.lastName].filter(Boolean).join(' ');
  return (
    <Flex direction="column" gap="medium">
      <Flex alignItems="center" gap="medium">
        <span className="avatar avatar--large" aria-hidden="true">
          {(user.firstName?.[0] ?? user.username?.[0] ?? '?').toUpperCase()}
        </span>
        <div>
          <Heading level={2} className="screen-heading">
            {fullName || user.username}
          </Heading>
          <Text color="font.secondary">{user.isAdmin ? 'Administrator' : 'Staff'}</Text>
        </div>
      </Flex>
      <dl className="profile-list">
        <Row label="Username" value={user.username} />
        <Row label="Email" value={user.email} />
        <Row label="Phone" value={user.phone} />
      </dl>
      <Flex gap="small" wrap="wrap">
        <Button variation="primary" onClick={onEdit}>
          Edit
        </Button>
        <Button variation="warning" onClick={onLogout} isLoading={loggingOut} loadingText="Please wait...">
          Logout
        </Button>
      </Flex>
    </Flex>
  );
}
