import { useEffect } from 'react';
import { Toaster, toast, useToasterStore } from 'react-hot-toast';
import { replacedErrors } from '../lib/toasts';

/**
 * ToastRegion is the one place outcomes show: at the bottom centre, clear of the header bar and
 * of the Save buttons (top right of the page editor, right-aligned under forms); the next
 * outcome replaces an error toast still on screen.
 */
export function ToastRegion() {
  const { toasts } = useToasterStore();
  useEffect(() => {
    for (const id of replacedErrors(toasts)) toast.remove(id);
  }, [toasts]);
  return <Toaster position="bottom-center" toastOptions={{ duration: 4000, className: 'app-toast' }} />;
}
