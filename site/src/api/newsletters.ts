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

/**
 * NewsletterPreview is a newsletter as a subscriber gets it: the HTML and text parts the send
 * writes, with a sample unsubscribe link, and who it is from.
 */
export interface NewsletterPreview {
  subject: string;
  fromName: string;
  replyTo?: string;
  html: string;
  text: string;
  unsubscribeUrl: string;
}

/** getPreview renders a saved newsletter as its mail (GET /newsletters/{id}/preview). */
export function getPreview(id: string): Promise<Envelope<NewsletterPreview>> {
  return api.get(`/newsletters/${encodeURIComponent(id)}/preview`);
}

/**
 * previewDraft renders what the form holds, unsaved, as its mail (POST /newsletters/preview): the
 * server checks and sanitises it as a save would and stores nothing.
 */
export function previewDraft(draft: Record<string, unknown>): Promise<Envelope<NewsletterPreview>> {
  return api.post('/newsletters/preview', draft);
}
