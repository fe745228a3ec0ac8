import { describe, expect, it } from 'vitest';
import { describe as describeLang, languageLabel, readCatalogue, readCodes, readSiteChoice, siteLanguages } from './languages';

const items = [
  { code: 'en', name: 'English', english: 'English', dir: 'ltr' },
  { code: 'fr', name: 'Français', english: 'French', dir: 'ltr' },
  { code: 'ar', name: 'العربية', english: 'Arabic', dir: 'rtl' },
];

describe('readCatalogue', () => {
  it('reads {items} at the top or inside the envelope, and skips entries without a code', () => {
    expect(readCatalogue({ items }).map((l) => l.code)).toEqual(['en', 'fr', 'ar']);
    expect(readCatalogue({ result: { items } })).toHaveLength(3);
    expect(readCatalogue({ result: items })).toHaveLength(3);
    expect(readCatalogue({ items: [{ name: 'x' }, null, { code: 'de', dir: 'sideways' }] })).toEqual([
      { code: 'de', name: 'de', english: 'de', dir: 'ltr' },
    ]);
    expect(readCatalogue(undefined)).toEqual([]);
  });
});

describe('readCodes', () => {
  it('reads a list or its JSON text, without repeats', () => {
    expect(readCodes(['fr', 'ar', 'fr', 3])).toEqual(['fr', 'ar']);
    expect(readCodes('["fr","ar"]')).toEqual(['fr', 'ar']);
    expect(readCodes('fr, ar')).toEqual(['fr', 'ar']);
    expect(readCodes('')).toEqual([]);
    expect(readCodes(null)).toEqual([]);
  });
});

describe('readSiteChoice', () => {
  it('takes GET /languages’s own choice, else the Site settings record’s, without the default among the others', () => {
    expect(readSiteChoice({ items, defaultLanguage: 'en', languages: ['fr', 'ar'] })).toEqual({ defaultLanguage: 'en', languages: ['fr', 'ar'] });
    expect(readSiteChoice({ result: { items, defaultLanguage: 'en', languages: ['fr', 'ar'], missingTranslation: 'fallback' } })).toEqual({
      defaultLanguage: 'en',
      languages: ['fr', 'ar'],
    });
    expect(readSiteChoice({ items })).toBeUndefined();
    expect(readSiteChoice({ result: { items } })).toBeUndefined();
    expect(readSiteChoice({ result: { id: 'SITE', defaultLanguage: 'fr', languages: '["en","fr"]' } })).toEqual({ defaultLanguage: 'fr', languages: ['en'] });
    expect(readSiteChoice({ result: { id: 'SITE', timeZone: 'UTC' } })).toBeUndefined();
    // Before the first save the settings say nothing of languages: English alone.
    expect(readSiteChoice({ result: { languages: [] } })).toEqual({ defaultLanguage: 'en', languages: [] });
  });
});

describe('siteLanguages', () => {
  it('describes each code from the catalogue, a right-to-left one with its direction, and a code it lacks plainly', () => {
    const site = siteLanguages({ defaultLanguage: 'en', languages: ['ar', 'fr', 'he'] }, readCatalogue({ items }));
    expect(site.defaultLanguage.name).toBe('English');
    expect(site.others.map((l) => [l.code, l.dir])).toEqual([
      ['ar', 'rtl'],
      ['fr', 'ltr'],
      ['he', 'rtl'],
    ]);
    expect(describeLang('pt-BR', [])).toEqual({ code: 'pt-BR', name: 'pt-BR', english: 'pt-BR', dir: 'ltr' });
  });

  it('keeps at most 9 others', () => {
    const codes = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j', 'k'];
    expect(siteLanguages({ defaultLanguage: 'en', languages: codes }, []).others).toHaveLength(9);
  });

  it('names a language in its own words with the English name beside', () => {
    expect(languageLabel({ code: 'fr', name: 'Français', english: 'French', dir: 'ltr' })).toBe('Français (French)');
    expect(languageLabel({ code: 'en', name: 'English', english: 'English', dir: 'ltr' })).toBe('English');
  });
});
