import { useEffect, useRef } from 'react';
import { useSearchParams } from 'react-router';

/**
 * useTakeUrlParam hands a screen the value of one query parameter once, then drops it from the
 * address (replace, no history entry): the palette opens a record with `?edit={id}` on its list
 * and a media file with `?search={name}` on the library.
 */
export function useTakeUrlParam(name: string, take: (value: string) => void): void {
  const [params, setParams] = useSearchParams();
  const value = params.get(name);
  const latest = useRef(take);
  latest.current = take;
  useEffect(() => {
    if (value === null) return;
    latest.current(value);
    setParams(
      (p) => {
        const next = new URLSearchParams(p);
        next.delete(name);
        return next;
      },
      { replace: true },
    );
  }, [name, value, setParams]);
}
