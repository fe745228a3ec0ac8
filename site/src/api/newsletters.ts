import { api } from './client';
import type { Envelope } from './types';

/** sendTest mails the newsletter to the signed-in user's own address (POST /newsletters/{id}/test). */
export function sendTest(id: string): Promise<Envelope<{ to: string }>> {
  return api.post(`/newsletters/${encodeURIComponent(id)}/test`, {});
}

/** sendNewsletter starts sending to every confirmed signup (POST /newsletters/{id}/send). */
export function sendNewsletter(id: string): Promise<Envelope<unknown>> {
  return api.post(`/newsletters/${encodeURIComponent(id)}/send`, {});
}
