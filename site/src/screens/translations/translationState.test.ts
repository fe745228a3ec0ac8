import { describe, expect, it } from 'vitest';
import type { FieldDecl } from '../../lib/collections';
import {
  NO_EDITS,
  applyPatch,
  confirmCurrent,
  dirtyLanguages,
  errorLanguage,
  errorsIn,
  fieldState,
  isDirty,
  publishedOf,
  readStatus,
  readTranslations,
  rebase,
  setPublished,
  setText,
  settle,
  statusLabels,
  textOf,
  translatableFields,
  translationPatch,
  type Translations,
} from './translationState';

const saved: Translations = {
  fr: { title: 'À propos', content: '<p>Bonjour</p>', published: true, outdated: ['content'] },
  ar: { title: 'من نحن', published: false },
};

describe('translatableFields', () => {
  it('keeps the declared translatable fields, never derived or transient ones', () => {
    const fields = [
      { name: 'title', label: 'Title', type: 'text', translatable: true },
      { name: 'image', label: 'Image', type: 'image' },
      { name: 'content', label: 'Content', type: 'richtext', translatable: true },
      { name: 'x', label: 'X', type: 'text', translatable: true, derived: true },
      { name: 'y', label: 'Y', type: 'json', translatable: true, transient: true },
    ] as FieldDecl[];
    expect(translatableFields(fields).map((f) => f.name)).toEqual(['title', 'content']);
  });
});

describe('readTranslations', () => {
  it('keeps language objects and drops anything else', () => {
    expect(readTranslations(undefined)).toEqual({});
    expect(readTranslations([1])).toEqual({});
    expect(readTranslations({ fr: { title: 'T' }, de: null, es: 'x' })).toEqual({ fr: { title: 'T' } });
  });
});

describe('merging edits over the stored translations', () => {
  it('shows the edit, else the stored text, else nothing', () => {
    const e = setText(NO_EDITS, saved, 'fr', 'title', 'Qui sommes-nous');
    expect(textOf(saved, e, 'fr', 'title')).toBe('Qui sommes-nous');
    expect(textOf(saved, e, 'ar', 'title')).toBe('من نحن');
    expect(textOf(saved, e, 'ar', 'content')).toBe('');
  });

  it('keeps every language’s edits when another language is edited (switching loses nothing)', () => {
    let e = setText(NO_EDITS, saved, 'fr', 'title', 'Nouveau');
    e = setText(e, saved, 'ar', 'content', '<p>مرحبا</p>');
    e = setText(e, saved, 'fr', 'content', '<p>Salut</p>');
    expect(textOf(saved, e, 'fr', 'title')).toBe('Nouveau');
    expect(textOf(saved, e, 'fr', 'content')).toBe('<p>Salut</p>');
    expect(textOf(saved, e, 'ar', 'content')).toBe('<p>مرحبا</p>');
    expect(dirtyLanguages(saved, e)).toEqual(['ar', 'fr']);
  });

  it('reads published as true unless stored or edited otherwise', () => {
    expect(publishedOf(saved, NO_EDITS, 'fr')).toBe(true);
    expect(publishedOf(saved, NO_EDITS, 'ar')).toBe(false);
    expect(publishedOf(saved, NO_EDITS, 'es')).toBe(true);
    expect(publishedOf(saved, setPublished(NO_EDITS, saved, 'ar', true), 'ar')).toBe(true);
  });
});

describe('dirty detection', () => {
  it('is clean with no edits', () => {
    expect(isDirty(saved, NO_EDITS)).toBe(false);
  });

  it('is dirty after a change and clean again when the text is put back', () => {
    const e = setText(NO_EDITS, saved, 'fr', 'title', 'Autre');
    expect(isDirty(saved, e)).toBe(true);
    const back = setText(e, saved, 'fr', 'title', 'À propos');
    expect(isDirty(saved, back)).toBe(false);
    expect(back.fields).toEqual({});
  });

  it('counts surrounding spaces and an empty Quill editor as no change', () => {
    expect(isDirty(saved, setText(NO_EDITS, saved, 'fr', 'title', '  À propos '))).toBe(false);
    expect(isDirty(saved, setText(NO_EDITS, saved, 'ar', 'content', '<p><br></p>'))).toBe(false);
  });

  it('counts the publish choice, and not setting it back', () => {
    const e = setPublished(NO_EDITS, saved, 'ar', true);
    expect(isDirty(saved, e)).toBe(true);
    expect(isDirty(saved, setPublished(e, saved, 'ar', false))).toBe(false);
  });
});

describe('what a save sends', () => {
  it('sends nothing when nothing changed', () => {
    expect(translationPatch(saved, NO_EDITS)).toBeUndefined();
  });

  it('sends each language’s changed fields only, trimmed', () => {
    let e = setText(NO_EDITS, saved, 'fr', 'title', ' Qui sommes-nous ');
    e = setText(e, saved, 'ar', 'content', '<p>مرحبا</p>');
    expect(translationPatch(saved, e)).toEqual({ ar: { content: '<p>مرحبا</p>' }, fr: { title: 'Qui sommes-nous' } });
  });

  it('sends "" for a cleared field (removes its translation)', () => {
    expect(translationPatch(saved, setText(NO_EDITS, saved, 'fr', 'title', ''))).toEqual({ fr: { title: '' } });
  });

  it('sends published where it changed, with a new language', () => {
    let e = setText(NO_EDITS, saved, 'es', 'title', 'Acerca de');
    e = setPublished(e, saved, 'es', false);
    e = setPublished(e, saved, 'ar', true);
    expect(translationPatch(saved, e)).toEqual({ ar: { published: true }, es: { title: 'Acerca de', published: false } });
  });

  it('sends a confirmed field’s own text again, which clears "May be out of date"', () => {
    const e = confirmCurrent(NO_EDITS, 'fr', 'content');
    expect(translationPatch(saved, e)).toEqual({ fr: { content: '<p>Bonjour</p>' } });
    expect(fieldState(saved, e, 'fr', 'content')).toBe('translated');
  });
});

describe('field states', () => {
  it('says missing, out of date or translated', () => {
    expect(fieldState(saved, NO_EDITS, 'ar', 'content')).toBe('missing');
    expect(fieldState(saved, NO_EDITS, 'fr', 'content')).toBe('outdated');
    expect(fieldState(saved, NO_EDITS, 'fr', 'title')).toBe('translated');
    // A new text answers "may be out of date"; clearing it is missing again.
    expect(fieldState(saved, setText(NO_EDITS, saved, 'fr', 'content', '<p>Neuf</p>'), 'fr', 'content')).toBe('translated');
    expect(fieldState(saved, setText(NO_EDITS, saved, 'fr', 'title', ''), 'fr', 'title')).toBe('missing');
  });
});

describe('rebase over a fresh copy', () => {
  it('keeps edits the copy does not hold and drops those it does', () => {
    let e = setText(NO_EDITS, saved, 'fr', 'title', 'Nouveau');
    e = setText(e, saved, 'ar', 'title', 'جديد');
    e = setPublished(e, saved, 'ar', true);
    const fresh: Translations = { ...saved, fr: { ...saved.fr, title: 'Nouveau' }, ar: { title: 'من نحن', published: true } };
    const next = rebase(e, fresh);
    expect(next.fields).toEqual({ ar: { title: 'جديد' } });
    expect(next.published).toEqual({});
    expect(translationPatch(fresh, next)).toEqual({ ar: { title: 'جديد' } });
  });

  it('after a save (the answer holds every edit) nothing is left unsaved', () => {
    const e = setText(NO_EDITS, saved, 'fr', 'content', '<p>Salut</p>');
    const answer: Translations = { ...saved, fr: { title: 'À propos', content: '<p>Salut</p>', published: true, outdated: [] } };
    expect(isDirty(answer, rebase(e, answer))).toBe(false);
  });
});

describe('errors of a save', () => {
  const errors = { 'translations.fr.title': 'Title must be at most 200 characters.', 'translations.ar.slug': 'Slug is taken.' };

  it('picks one language’s field errors', () => {
    expect(errorsIn(errors, 'fr')).toEqual({ title: 'Title must be at most 200 characters.' });
    expect(errorsIn(errors, 'ar')).toEqual({ slug: 'Slug is taken.' });
    expect(errorsIn(errors, 'es')).toEqual({});
  });

  it('switches to the first language with an error, unless a default field has one', () => {
    expect(errorLanguage(errors)).toBe('fr');
    expect(errorLanguage({ 'translations.de': 'German is not one of the site’s languages.' })).toBe('de');
    expect(errorLanguage({ title: 'Title is required!', ...errors })).toBeUndefined();
    expect(errorLanguage({})).toBeUndefined();
  });
});

describe('status labels', () => {
  const langs = [
    { code: 'fr', english: 'French' },
    { code: 'ar', english: 'Arabic' },
    { code: 'es', english: 'Spanish' },
  ];

  it('reads translationStatus defensively', () => {
    expect(readStatus({ fr: { filled: 6, total: 8, published: true, outdated: 1 }, x: 'no', y: { filled: 'a' } })).toEqual({
      fr: { filled: 6, total: 8, published: true, outdated: 1 },
    });
    expect(readStatus(null)).toEqual({});
  });

  it('gives "FR 6/8" per language in the site’s order, with what is out of date and kept back', () => {
    const status = readStatus({ ar: { filled: 8, total: 8, published: false }, fr: { filled: 6, total: 8, outdated: 1 }, es: { filled: 0, total: 8 } });
    const labels = statusLabels(status, langs);
    expect(labels.map((l) => l.short)).toEqual(['FR 6/8', 'AR 8/8', 'ES –']);
    expect(labels[0].long).toBe('French: 6 of 8 fields translated, 1 may be out of date');
    expect(labels[0].tone).toBe('partial');
    expect(labels[1].long).toBe('Arabic: 8 of 8 fields translated, not published');
    expect(labels[1].tone).toBe('complete');
    expect(labels[2].long).toBe('Spanish: not translated yet');
    expect(labels[2].tone).toBe('none');
  });

  it('says "not translated yet" of a language the row has no status for', () => {
    expect(statusLabels({}, langs.slice(0, 1))).toEqual([
      { lang: 'fr', short: 'FR –', long: 'French: not translated yet', tone: 'none', outdated: 0, published: true },
    ]);
  });
});

describe('applyPatch', () => {
  it('folds what a save sent into the stored translations: set, removed, published, no longer out of date', () => {
    let e = setText(NO_EDITS, saved, 'fr', 'content', '<p>Salut</p>');
    e = setText(e, saved, 'fr', 'title', '');
    e = setText(e, saved, 'es', 'title', 'Acerca de');
    e = setPublished(e, saved, 'ar', true);
    const after = applyPatch(saved, translationPatch(saved, e));
    expect(after).toEqual({
      fr: { content: '<p>Salut</p>', published: true, outdated: [] },
      ar: { title: 'من نحن', published: true },
      es: { title: 'Acerca de' },
    });
    // What was sent is no longer unsaved; an edit made while the save was on its way still is.
    expect(isDirty(after, rebase(e, after))).toBe(false);
    const typedMeanwhile = setText(e, saved, 'fr', 'content', '<p>Salut !</p>');
    expect(translationPatch(after, rebase(typedMeanwhile, after))).toEqual({ fr: { content: '<p>Salut !</p>' } });
  });

  it('changes nothing without a patch', () => {
    expect(applyPatch(saved, undefined)).toBe(saved);
  });
});

describe('settle after a save', () => {
  it('drops what was sent even when the server answers it sanitised, and keeps what was typed meanwhile', () => {
    let e = setText(NO_EDITS, saved, 'ar', 'content', '<p>مرحبا&nbsp;بكم</p>');
    e = setText(e, saved, 'ar', 'title', 'جديد');
    e = setPublished(e, saved, 'ar', true);
    const sent = translationPatch(saved, e);
    const typed = setText(e, saved, 'ar', 'title', 'جديد جدا');
    // The answer holds the content with a plain no-break space instead of the entity.
    const answer: Translations = { ar: { title: 'جديد', content: '<p>مرحبا\u00a0بكم</p>', published: true } };
    const next = rebase(settle(typed, sent), answer);
    expect(translationPatch(answer, next)).toEqual({ ar: { title: 'جديد جدا' } });
    expect(isDirty(answer, rebase(settle(e, sent), answer))).toBe(false);
    // Without settling, the sanitised answer would read as a change.
    expect(isDirty(answer, rebase(e, answer))).toBe(true);
  });
});
