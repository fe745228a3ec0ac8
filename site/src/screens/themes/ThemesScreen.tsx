import { Badge, Card, Flex, Heading, Loader, Text } from '@aws-amplify/ui-react';
import { useState } from 'react';
import { Link } from 'react-router';
import toast from 'react-hot-toast';
import useSWR, { useSWRConfig } from 'swr';
import { dataProvider, fetchers, keys, mutateResource, type ListResult } from '../../api/dataProvider';
import { KEYS } from '../../api/hooks';
import { messageOf } from '../../api/http';
import { useApp } from '../../app/AppContext';
import { LoadError } from '../../components/LoadError';
import { can } from '../../lib/collections';
import { MSG } from '../../lib/messages';
import './themes.css';

export interface Theme {
  id: string;
  name: string;
  image: string;
  description?: string;
}

/**
 * ThemesScreen is the theme grid (SPEC §2): the active theme marked; a click activates a theme
 * (PATCH /theme-settings/{id} {themeId}), its card loading until done, then the tenant details
 * are fetched again.
 */
export function ThemesScreen() {
  const { tenant, tenantId, user } = useApp();
  const { mutate } = useSWRConfig();
  const { data, error, isLoading, mutate: reload } = useSWR<ListResult<Theme>>(keys.list('themes'), fetchers.list<Theme>, { revalidateOnFocus: false });
  const [activating, setActivating] = useState<string | null>(null);
  const active = tenant?.themeSetting?.theme;
  const mayActivate = can(user, { category: 'THEME' }, 'EDIT');

  const activate = async (theme: Theme) => {
    if (activating || theme.id === active || !mayActivate) return;
    setActivating(theme.id);
    try {
      const id = tenant?.themeSetting?.id ?? tenantId ?? '';
      await dataProvider.saveSingleton('theme-settings', { themeId: theme.id }, undefined, id);
      await mutate(KEYS.tenantInfo);
      await mutateResource('theme-settings');
      toast.success(MSG.themeActivated(theme.name));
    } catch (err) {
      toast.error(messageOf(err));
    } finally {
      setActivating(null);
    }
  };

  return (
    <Card variation="outlined" className="panel">
      <Flex justifyContent="space-between" alignItems="center" wrap="wrap" marginBottom="medium">
        <Heading level={2} className="screen-heading">
          Themes
        </Heading>
        <Link to="/theme-settings">Theme Settings</Link>
      </Flex>
      {error ? (
        <LoadError error={error} onRetry={() => reload()} />
      ) : isLoading ? (
        <Loader />
      ) : (
        <div className="card-grid" role="list" aria-label="Themes">
          {(data?.items ?? []).map((t) => (
            // A list item holding a toggle button: aria-pressed belongs to the button, not the item.
            <div key={t.id} role="listitem" className="choice-card-item" aria-label={`Theme ${t.name}${t.id === active ? ' (active)' : ''}`}>
            <button
              type="button"
              className={`choice-card${t.id === active ? ' choice-card--active' : ''}`}
              aria-pressed={t.id === active}
              aria-busy={activating === t.id}
              disabled={activating !== null}
              onClick={() => activate(t)}
            >
              <img src={t.image} alt="" className="choice-card-image" />
              <Flex justifyContent="space-between" alignItems="center" padding="small">
                <Text fontWeight="bold">{t.name}</Text>
                {activating === t.id ? <Loader /> : t.id === active ? <Badge variation="success">Active</Badge> : null}
              </Flex>
              {t.description && (
                <Text fontSize="small" paddingInline="small" paddingBottom="small">
                  {t.description}
                </Text>
              )}
            </button>
            </div>
          ))}
        </div>
      )}
    </Card>
  );
}
