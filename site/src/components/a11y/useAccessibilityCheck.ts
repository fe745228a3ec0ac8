import { useCallback, useEffect, useRef, useState } from 'react';
import { api } from '../../api/client';
import { HttpError } from '../../api/http';
import { asFindings, CHECK_DELAY, type Finding } from '../../lib/a11y';

/** CHECK_PATH is the checker's endpoint: it reads the form's values and never writes. */
export const CHECK_PATH = '/accessibility-check';

/** findingsOfError reads the findings a refused save carries (422: the page has accessibility errors), or null. */
export function findingsOfError(err: unknown): Finding[] | null {
  if (!(err instanceof HttpError) || err.status !== 422 || !Array.isArray(err.body.findings)) return null;
  return asFindings(err.body.findings);
}

/**
 * useAccessibilityCheck asks the server's checker about a record as the form holds it, CHECK_DELAY
 * after the last change (values: null while there is nothing to check). Only the latest answer
 * counts; a checker that cannot answer (offline, a collection it does not check) leaves the last
 * findings shown and says nothing: it helps, it never blocks typing. show() puts a refused save's
 * findings up at once.
 */
export function useAccessibilityCheck(collection: string, values: Record<string, unknown> | null, enabled = true) {
  const [findings, setFindings] = useState<Finding[]>([]);
  const [checking, setChecking] = useState(false);
  const seq = useRef(0);
  // The values as JSON: a re-render with equal values is no change.
  const body = enabled && values ? JSON.stringify(values) : '';

  useEffect(() => {
    const mine = ++seq.current;
    if (!body) {
      // Nothing open: the last record's findings go with it.
      setFindings([]);
      setChecking(false);
      return;
    }
    const timer = setTimeout(() => {
      setChecking(true);
      api
        .post<{ findings?: unknown }>(CHECK_PATH, { collection, values: JSON.parse(body) as unknown })
        .then((res) => {
          if (mine === seq.current) setFindings(asFindings(res?.findings));
        })
        .catch(() => {})
        .finally(() => {
          if (mine === seq.current) setChecking(false);
        });
    }, CHECK_DELAY);
    return () => clearTimeout(timer);
  }, [collection, body]);

  const show = useCallback((next: Finding[]) => {
    seq.current++;
    setChecking(false);
    setFindings(next);
  }, []);

  return { findings, checking, show };
}
