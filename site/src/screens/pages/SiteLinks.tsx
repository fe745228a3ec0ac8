import { Button, Flex, Text } from '@aws-amplify/ui-react';
import { useState } from 'react';
import { api } from '../../api/client';
import { HttpError } from '../../api/http';
import type { Envelope } from '../../api/types';
import { useApp } from '../../app/AppContext';

interface Props {
  pageId: string;
  slug: string;
  published: boolean;
  /** dirty: the editor holds unsaved changes, which neither link shows. */
  dirty: boolean;
}

/**
 * SiteLinks are the page editor's "Preview" (the saved page as the website would show it,
 * published or not, through a short-lived private address) and "View on site" (published pages).
 */
export function SiteLinks({ pageId, slug, published, dirty }: Props) {
  const { tenant } = useApp();
  const site = tenant?.websiteUrl ?? '';
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');
  if (!site) {
    return <Text fontSize="small" color="font.secondary">The website has no address yet: ask your operator to set up its domain.</Text>;
  }
  const preview = async () => {
    setError('');
    setBusy(true);
    // The window opens now, inside the click, so no popup blocker stops it; it gets its address
    // once the preview link exists.
    const win = window.open('about:blank', '_blank');
    try {
      const res = await api.post<Envelope<{ path: string }>>(`/pages/${pageId}/preview`);
      if (win) win.location.href = site + res.result.path;
      else window.location.assign(site + res.result.path);
    } catch (err) {
      win?.close();
      setError(err instanceof HttpError ? err.message : 'Some error occured!');
    } finally {
      setBusy(false);
    }
  };
  return (
    <Flex gap="small" alignItems="center" wrap="wrap">
      {dirty && <Text fontSize="small" color="font.secondary">Preview shows the saved page.</Text>}
      <Button size="small" onClick={() => void preview()} isDisabled={busy}>
        {busy ? 'Please wait...' : 'Preview'}
      </Button>
      {published && slug && !dirty && (
        <a className="amplify-button amplify-button--small amplify-button--link" href={`${site}/${slug}`} target="_blank" rel="noopener noreferrer">
          View on site
        </a>
      )}
      {error && (
        <Text role="alert" color="font.error" fontSize="small">
          {error}
        </Text>
      )}
    </Flex>
  );
}
