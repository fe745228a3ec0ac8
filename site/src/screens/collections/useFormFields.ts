import { useState } from 'react';
import toast from 'react-hot-toast';
import type { FieldErrors, FormValues } from '../../lib/collections';

/**
 * useFormFields holds a declared form's values and field errors: editing a field clears its
 * error, and check shows a failed validation (inline and as a toast of the first message). The
 * record form and the settings form both build on it.
 */
export function useFormFields() {
  const [values, setValues] = useState<FormValues>({});
  const [errors, setErrors] = useState<FieldErrors>({});

  const setField = (name: string, value: unknown) => {
    setValues((v) => ({ ...v, [name]: value }));
    setErrors((e) => {
      if (!e[name]) return e;
      const next = { ...e };
      delete next[name];
      return next;
    });
  };

  /** check shows the errors found; true when there are none. */
  const check = (found: FieldErrors) => {
    setErrors(found);
    const first = Object.values(found)[0];
    if (first) toast.error(first);
    return !first;
  };

  return { values, setValues, errors, setErrors, setField, check };
}
