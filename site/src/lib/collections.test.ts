import { describe, expect, it } from 'vitest';
import type { User } from '../api/types';
import {
  COLLECTIONS,
  can,
  collectionFor,
  initialValues,
  listColumns,
  listHeading,
  nextSort,
  recordName,
  toPayload,
  validateFormats,
  validateRequired,
  type CollectionDecl,
} from './collections';

const faqs = COLLECTIONS.faqs;
const users = COLLECTIONS.users;

const user = (over: Partial<User>): User => ({
  id: 'u', username: 'u', email: '', phone: '', firstName: '', lastName: '', isAdmin: false, roleId: '', status: true, permissions: [], ...over,
});

describe('declarations', () => {
  it('come from shared/collections/collections.json with their keys', () => {
    for (const key of ['faqs', 'newsletter-signups', 'sitemap-entries', 'notices', 'albums', 'events', 'photos', 'testimonials', 'sliders', 'resources', 'departments', 'staff-members', 'popups', 'notifications', 'users', 'invoices', 'custom-forms', 'roles']) {
      expect(COLLECTIONS[key]?.key).toBe(key);
    }
    expect(faqs.title).toBe('FAQ');
  });
  it('every reference points at a declared collection', () => {
    for (const d of Object.values(COLLECTIONS)) {
      for (const f of d.fields.filter((x) => x.type === 'reference')) expect(COLLECTIONS[f.ref ?? '']).toBeDefined();
    }
  });
  it('never lists passwords', () => {
    expect(listColumns(users).map((f) => f.name)).not.toContain('password');
    expect(listColumns(users).map((f) => f.name)).not.toContain('permissionIds');
  });
});

describe('listHeading', () => {
  it("is 'Create {title}' when empty, else '{n} {title} Created'", () => {
    expect(listHeading(faqs, 0)).toBe('Create FAQ');
    expect(listHeading(faqs, 1)).toBe('1 FAQ Created');
    expect(listHeading(faqs, 12)).toBe('12 FAQs Created');
  });
});

describe('can', () => {
  it('admins pass, others need the code of the category', () => {
    expect(can(user({ isAdmin: true }), faqs, 'DELETE')).toBe(true);
    const viewer = user({ permissions: ['CMS_VIEW_FAQ'] });
    expect(can(viewer, faqs, 'VIEW')).toBe(true);
    expect(can(viewer, faqs, 'CREATE')).toBe(false);
    expect(can(viewer, COLLECTIONS.events, 'VIEW')).toBe(false);
    expect(can(null, faqs, 'VIEW')).toBe(false);
  });
});

describe('initialValues', () => {
  it('uses declared defaults for create', () => {
    const v = initialValues(faqs);
    expect(v).toEqual({ question: '', answer: '', position: '', status: true });
    expect(initialValues(COLLECTIONS.notifications).type).toBe('push');
    expect(initialValues(users).permissionIds).toEqual([]);
  });
  it('coerces the record for edit and never shows the password', () => {
    const v = initialValues(users, { id: '1', firstName: 'A', status: '1', isAdmin: 0, password: 'x', permissionIds: ['CMS_VIEW_FAQ'] });
    expect(v.status).toBe(true);
    expect(v.isAdmin).toBe(false);
    expect(v.password).toBe('');
    expect(v.lastName).toBe('');
    expect(v.permissionIds).toEqual(['CMS_VIEW_FAQ']);
    expect(initialValues(COLLECTIONS.events, { id: '1', startDate: '2026-05-01T00:00:00Z' }).startDate).toBe('2026-05-01');
    expect(initialValues(COLLECTIONS['custom-forms'], { id: '1', fields: [{ id: 'a' }] }).fields).toBe('[\n  {\n    "id": "a"\n  }\n]');
    expect(initialValues(faqs, { id: '1', position: 3, status: false }).position).toBe('3');
  });
});

describe('validateRequired', () => {
  it("gives '{label} is required!' for each empty required field", () => {
    expect(validateRequired(faqs, { question: ' ', answer: '', status: false }, 'create')).toEqual({
      question: 'Question is required!',
      answer: 'Answer is required!',
    });
    expect(validateRequired(faqs, { question: 'Q', answer: 'A' }, 'create')).toEqual({});
  });
  it('a required password may stay empty on edit', () => {
    const d: CollectionDecl = { ...users, fields: [{ name: 'password', label: 'Password', type: 'password', required: true }] };
    expect(validateRequired(d, { password: '' }, 'create')).toEqual({ password: 'Password is required!' });
    expect(validateRequired(d, { password: '' }, 'edit')).toEqual({});
  });
});

describe('validateFormats', () => {
  it('checks numbers and JSON', () => {
    expect(validateFormats(faqs, { position: 'x' })).toEqual({ position: 'Position must be a number!' });
    expect(validateFormats(COLLECTIONS['custom-forms'], { fields: '[1,' })).toEqual({ fields: 'Fields must be valid JSON!' });
    expect(validateFormats(faqs, { position: '' })).toEqual({});
  });
});

describe('toPayload', () => {
  it('types the values', () => {
    expect(toPayload(faqs, { question: ' Q ', answer: 'A', position: '4', status: true })).toEqual({
      question: 'Q', answer: 'A', position: 4, status: true,
    });
    expect(toPayload(faqs, { question: 'Q', answer: 'A', position: '', status: false }).position).toBeNull();
  });
  it('leaves an empty password out', () => {
    expect(toPayload(users, initialValues(users))).not.toHaveProperty('password');
    expect(toPayload(users, { ...initialValues(users), password: 'secret1' }).password).toBe('secret1');
  });
});

describe('recordName', () => {
  it('uses the name field, then title/name/label, then id', () => {
    expect(recordName(COLLECTIONS.albums, { id: '1', title: 'Trip' })).toBe('Trip');
    expect(recordName(COLLECTIONS.roles, { id: '1', name: 'Editors' })).toBe('Editors');
    expect(recordName(undefined, { id: '9', label: 'L' })).toBe('L');
    expect(recordName(undefined, { id: '9' })).toBe('9');
  });
});

describe('sorting', () => {
  it('toggles the order of the same column and starts others ascending', () => {
    expect(nextSort(null, 'question')).toEqual({ field: 'question', order: 'asc' });
    expect(nextSort({ field: 'question', order: 'asc' }, 'question')).toEqual({ field: 'question', order: 'desc' });
    expect(nextSort({ field: 'question', order: 'desc' }, 'question')).toEqual({ field: 'question', order: 'asc' });
    expect(nextSort({ field: 'question', order: 'desc' }, 'answer')).toEqual({ field: 'answer', order: 'asc' });
  });
});

describe('an emails field (custom forms: notifyEmails)', () => {
  const forms = collectionFor('custom-forms')!;
  it('is edited as one address a line and sent as text the server splits', () => {
    const values = initialValues(forms, { id: 'f1', notifyEmails: ['office@school.example', 'head@school.example'] } as never);
    expect(values.notifyEmails).toBe('office@school.example\nhead@school.example');
    expect(toPayload(forms, values).notifyEmails).toBe('office@school.example\nhead@school.example');
  });
});

describe('a languages field (Site settings: the other languages, issue 35)', () => {
  const settings = COLLECTIONS['site-settings'];
  it('is edited as a list of codes and sent as one, never as text', () => {
    expect(settings.fields.find((f) => f.name === 'languages')?.type).toBe('languages');
    expect(initialValues(settings).languages).toEqual([]);
    const values = initialValues(settings, { id: 'SITE', languages: ['fr', 'ar'] });
    expect(values.languages).toEqual(['fr', 'ar']);
    expect(toPayload(settings, values).languages).toEqual(['fr', 'ar']);
    expect(toPayload(settings, { ...values, languages: [] }).languages).toEqual([]);
  });
});
