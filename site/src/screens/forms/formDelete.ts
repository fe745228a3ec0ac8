import { dataProvider } from '../../api/dataProvider';
import { MSG } from '../../lib/messages';

/**
 * formDeleteText is the confirmation of a form's delete: SPEC's question, after how many
 * submissions go to the trash with the form (count null: not known, such as for a user who may
 * not read submissions).
 */
export function formDeleteText(count: number | null): string {
  if (count === 0) return MSG.confirmDelete;
  if (count === null) return `Any submissions it has go to the trash with it. ${MSG.confirmDelete}`;
  if (count === 1) return `This form has 1 submission; it goes to the trash with it. ${MSG.confirmDelete}`;
  return `This form has ${count} submissions; they go to the trash with it. ${MSG.confirmDelete}`;
}

/** formDeleteMessage reads a form's submission count (its submissions list's total) into formDeleteText. */
export async function formDeleteMessage(formId: string): Promise<string> {
  try {
    const page = await dataProvider.list('custom-form-submissions', { filter: { formId }, limit: 5 });
    return formDeleteText(page.total);
  } catch {
    return formDeleteText(null);
  }
}
