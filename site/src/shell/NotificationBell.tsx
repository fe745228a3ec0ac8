import { Button, Flex, Text } from '@aws-amplify/ui-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { mutate } from 'swr';
import { api } from '../api/client';
import { useBellFeed } from '../app/useNotificationsPoll';
import { Modal } from '../components/Modal';
import { formatDateTime } from '../lib/format';
import { BELL_KEY, bellItems, markReadBody, notificationText, unreadCount, type NotificationItem } from '../lib/notifications';
import { BellIcon } from './icons';

/**
 * NotificationBell shows the unread count; its modal lists the first 3 unread notifications
 * and marks them read on opening (SPEC §2 Notification modal, §4).
 */
export function NotificationBell() {
  const { data } = useBellFeed();
  const [open, setOpen] = useState(false);
  const [shown, setShown] = useState<NotificationItem[]>([]);
  const count = unreadCount(data);
  const openModal = () => {
    const items = bellItems(data);
    setShown(items);
    setOpen(true);
    if (items.length === 0) return;
    api
      .patch('/notifications/', markReadBody(items.map((n) => n.id)))
      .then(() => mutate(BELL_KEY))
      // Marking read only gets logged when it fails (SPEC §8).
      .catch((err) => console.warn('marking notifications read failed', err));
  };

  return (
    <>
      {/* The name is the button's own hidden text, not an aria-label, and the badge is hidden from
          it: the number is said once, exactly (the badge stops at 99+), and no check can see the
          name and the badge disagree while a poll is changing the count. */}
      <button type="button" className="icon-button bell-button" title="Notifications" onClick={openModal}>
        <BellIcon />
        <span className="visually-hidden">{count > 0 ? `Notifications (${count} unread)` : 'Notifications'}</span>
        {count > 0 && (
          <span className="bell-count" data-testid="bell-count" aria-hidden="true">
            {count > 99 ? '99+' : count}
          </span>
        )}
      </button>
      {open && (
        <Modal title="Notifications" onClose={() => setOpen(false)} maxWidth={480} className="notification-modal">
          {shown.length === 0 ? (
            <Flex direction="column" alignItems="center" gap="small" padding="medium">
              <Text>No New Notifications</Text>
              <Link to="/notifications" onClick={() => setOpen(false)}>
                View Recent
              </Link>
            </Flex>
          ) : (
            <>
              <ul className="notification-list">
                {shown.map((n) => (
                  <li key={n.id} className="notification-item">
                    <strong className="notification-title">{n.title}</strong>
                    <Text className="notification-text">{notificationText(n)}</Text>
                    {n.createdAt && (
                      <Text as="span" fontSize="small" color="font.tertiary">
                        {formatDateTime(n.createdAt)}
                      </Text>
                    )}
                  </li>
                ))}
              </ul>
              <Flex justifyContent="center" marginTop="small">
                <Link to="/notifications" onClick={() => setOpen(false)}>
                  View All Notifications
                </Link>
              </Flex>
            </>
          )}
          <Flex justifyContent="flex-end" marginTop="medium">
            <Button size="small" onClick={() => setOpen(false)}>
              Close
            </Button>
          </Flex>
        </Modal>
      )}
    </>
  );
}
