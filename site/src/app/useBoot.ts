import { useEffect, useState } from 'react';
import { configureClient, loadConfig } from '../api/client';
import { messageOf } from '../api/http';
import { resolveTenant } from '../lib/tenant';

export interface BootState {
  tenantId: string | null;
  error: string | null;
}

/** useBoot reads /config.json, resolves the tenant and configures the API client. */
export function useBoot(): BootState {
  const [state, setState] = useState<BootState>({ tenantId: null, error: null });
  useEffect(() => {
    let cancelled = false;
    loadConfig()
      .then((config) => {
        const tenantId = resolveTenant(window.location.search, window.localStorage, config.defaultTenant);
        configureClient({ apiBase: config.apiBase, tenantId });
        if (!cancelled) setState({ tenantId, error: null });
      })
      .catch((err) => {
        if (!cancelled) setState({ tenantId: null, error: messageOf(err) });
      });
    return () => {
      cancelled = true;
    };
  }, []);
  return state;
}
