import { describe, expect, test } from 'vitest';
import {
  changeField,
  FIELD_TYPES,
  fieldsText,
  hasEmailField,
  MAX_NOTIFY_EMAILS,
  notifyEmailsError,
  parseEmailList,
  missingRequired,
  moveField,
  newField,
  optionSuggestions,
  parseFields,
  submissionBody,
  type FormField,
} from './builder';

const field = (over: Partial<FormField> = {}): FormField => ({ ...newField(), label: 'Q', ...over });

describe('changeField (SPEC §4)', () => {
  test('a type without options clears them', () => {
    const f = field({ fieldType: 'select', options: [{ id: 'a', name: 'One' }] });
    expect(changeField(f, { fieldType: 'text' }).options).toEqual([]);
  });
  test('a type with options gets one blank option if none exist', () => {
    const out = changeField(field(), { fieldType: 'radio' });
    expect(out.options).toHaveLength(1);
    expect(out.options[0].name).toBe('');
    expect(out.options[0].id.startsWith('NEW_')).toBe(true);
  });
  test('existing options are kept when changing between choice types', () => {
    const f = field({ fieldType: 'select', options: [{ id: 'a', name: 'One' }] });
    expect(changeField(f, { fieldType: 'checkbox' }).options).toEqual([{ id: 'a', name: 'One' }]);
  });
  test('options with an empty name are dropped when the field changes', () => {
    const f = field({ fieldType: 'select', options: [{ id: 'a', name: 'One' }, { id: 'b', name: ' ' }] });
    expect(changeField(f, { label: 'New label' }).options).toEqual([{ id: 'a', name: 'One' }]);
  });
  test('editing the options themselves keeps a blank being typed', () => {
    const f = field({ fieldType: 'select', options: [{ id: 'a', name: 'One' }] });
    const opts = [...f.options, { id: 'b', name: '' }];
    expect(changeField(f, { options: opts }).options).toHaveLength(2);
  });
  test('does not mutate its input', () => {
    const f = field({ fieldType: 'select', options: [{ id: 'a', name: '' }] });
    changeField(f, { fieldType: 'text' });
    expect(f.options).toHaveLength(1);
  });
});

describe('moveField', () => {
  test('moves without mutating', () => {
    const list = ['a', 'b', 'c'];
    expect(moveField(list, 0, 2)).toEqual(['b', 'c', 'a']);
    expect(moveField(list, 2, 0)).toEqual(['c', 'a', 'b']);
    expect(list).toEqual(['a', 'b', 'c']);
    expect(moveField(list, 0, 5)).toBe(list);
  });
});

describe('optionSuggestions (SPEC §9)', () => {
  test('at most 6, filtered by prefix, without names the field has', () => {
    const cur = field({ fieldType: 'radio', options: [{ id: 'a', name: 'Yes' }] });
    const all = optionSuggestions('', [cur], cur);
    expect(all.length).toBe(6);
    expect(all).not.toContain('Yes');
    expect(optionSuggestions('m', [cur], cur)).toEqual(['Maybe', 'Male', 'Morning']);
  });
  test("the form's own names come first", () => {
    const other = field({ fieldType: 'select', options: [{ id: 'x', name: 'Mathematics' }] });
    const cur = field({ fieldType: 'select' });
    expect(optionSuggestions('ma', [other, cur], cur)[0]).toBe('Mathematics');
  });
});

describe('fields text', () => {
  test('round trip drops blank options and options of types without them', () => {
    const fields = [
      field({ label: ' Name ', fieldType: 'text', required: true }),
      field({ label: 'Pick', fieldType: 'select', options: [{ id: 'a', name: 'A' }, { id: 'b', name: '' }] }),
    ];
    const back = parseFields(fieldsText(fields));
    expect(back[0]).toMatchObject({ label: 'Name', fieldType: 'text', required: true, options: [] });
    expect(back[1].options).toEqual([{ id: 'a', name: 'A' }]);
    expect(JSON.parse(fieldsText(fields))[0].options).toBeUndefined();
  });
  test('malformed text is no fields', () => {
    expect(parseFields('{')).toEqual([]);
    expect(parseFields(undefined)).toEqual([]);
  });
});

describe('preview submit', () => {
  const fields = [field({ label: 'Name', required: true }), field({ label: 'Days', fieldType: 'checkbox', required: true }), field({ label: 'Note' })];
  test("the first empty required field blocks with '{label} is required!'", () => {
    expect(missingRequired(fields, {})).toBe('Name is required!');
    expect(missingRequired(fields, { Name: '  ' })).toBe('Name is required!');
    expect(missingRequired(fields, { Name: 'A', Days: [] })).toBe('Days is required!');
    expect(missingRequired(fields, { Name: 'A', Days: ['Mon'] })).toBeNull();
  });
  test('the body carries formId and the answered labels only', () => {
    expect(submissionBody('F1', fields, { Name: 'A', Days: ['Mon'], Note: '' })).toEqual({ formId: 'F1', Name: 'A', Days: ['Mon'] });
  });
});

describe('notification addresses', () => {
  test('splits what staff type into addresses, lower-cased without repeats', () => {
    expect(parseEmailList(' Office@Example.org,\nhead@example.org; office@example.org  ')).toEqual(['office@example.org', 'head@example.org']);
    expect(parseEmailList('')).toEqual([]);
  });
  test('names the first bad address, then a list that is too long', () => {
    expect(notifyEmailsError(['office@example.org'])).toBeNull();
    expect(notifyEmailsError(['office@example.org', 'nobody'])).toBe('Notify Emails: "nobody" is not a valid email address.');
    expect(notifyEmailsError(['<x@example.org>'])).not.toBeNull();
    const eleven = Array.from({ length: MAX_NOTIFY_EMAILS + 1 }, (_, i) => `s${i}@example.org`);
    expect(notifyEmailsError(eleven)).toBe('Notify Emails can list at most 10 addresses.');
  });
  test('an Email field type, without options, that the auto-reply needs', () => {
    expect(FIELD_TYPES.find((t) => t.type === 'email')).toMatchObject({ label: 'Email', options: false });
    expect(hasEmailField([changeField(newField(), { fieldType: 'email' })])).toBe(true);
    expect(hasEmailField([newField()])).toBe(false);
  });
});
