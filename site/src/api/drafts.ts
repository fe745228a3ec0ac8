import { api } from './client';
import type { Envelope } from './types';
import type { Draft, DraftState } from '../screens/drafts/workflow';

/** The drafts and review routes of a workflow collection (shared/collections/workflow.go). */

const rec = (c: string, id: string) => `/${encodeURIComponent(c)}/${encodeURIComponent(id)}`;

export interface DraftCompare {
  draft: Draft | null;
  live: Record<string, unknown> | null;
  changed: string[];
}

export interface DraftComment {
  id: string;
  comment: string;
  by: string;
  byName?: string;
  at: string;
}

/** createDraft starts a new record as a draft alone (POST /{c}/draft). */
export function createDraft(c: string, fields: Record<string, unknown>): Promise<Envelope<Draft>> {
  return api.post(`/${encodeURIComponent(c)}/draft`, fields);
}

/** getDraft gives the draft, the live record and the fields that differ (GET /{c}/{id}/draft). */
export function getDraft(c: string, id: string): Promise<Envelope<DraftCompare>> {
  return api.get(`${rec(c, id)}/draft`);
}

/** saveDraft saves fields to the draft; version 0 starts a draft of the live record; a stale one is 409. */
export function saveDraft(c: string, id: string, fields: Record<string, unknown>, version: number): Promise<Envelope<Draft>> {
  return api.put(`${rec(c, id)}/draft`, { ...fields, version });
}

/** discardDraft removes the draft (DELETE /{c}/{id}/draft). */
export function discardDraft(c: string, id: string): Promise<Envelope<{ id: string }>> {
  return api.del(`${rec(c, id)}/draft`);
}

export function submitDraft(c: string, id: string, version?: number): Promise<Envelope<Draft>> {
  return api.post(`${rec(c, id)}/draft/submit`, { version });
}

export function approveDraft(c: string, id: string, version?: number): Promise<Envelope<Draft>> {
  return api.post(`${rec(c, id)}/draft/approve`, { version });
}

export function requestChanges(c: string, id: string, comment: string, version?: number): Promise<Envelope<Draft>> {
  return api.post(`${rec(c, id)}/draft/request-changes`, { comment, version });
}

/** publishDraft publishes now, or at publishAt (an ISO time) when given. */
export function publishDraft(c: string, id: string, version?: number, publishAt?: string): Promise<Envelope<unknown>> {
  return api.post(`${rec(c, id)}/draft/publish`, publishAt ? { version, publishAt } : { version });
}

export function listComments(c: string, id: string): Promise<Envelope<DraftComment[]> & { totalCount?: number }> {
  return api.get(`${rec(c, id)}/comments`);
}

export function addComment(c: string, id: string, comment: string): Promise<Envelope<DraftComment>> {
  return api.post(`${rec(c, id)}/comments`, { comment });
}

/** draftsPath is the GET /drafts address for a state and/or collection (newest first, at most 100). */
export function draftsPath(q: { state?: DraftState; collection?: string; limit?: number }): string {
  const p = new URLSearchParams();
  if (q.state) p.set('state', q.state);
  if (q.collection) p.set('collection', q.collection);
  if (q.limit) p.set('limit', String(q.limit));
  const s = p.toString();
  return s ? `/drafts?${s}` : '/drafts';
}
