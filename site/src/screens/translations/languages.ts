/**
 * The languages a site is written in (issue 35): the catalogue GET /languages answers (each
 * language by its BCP 47 code, its own name, its English name and its direction) and the site's
 * choice (Site settings: defaultLanguage, and up to 9 others in `languages`).
 */

/** Language is one entry of the catalogue. */
export interface Language {
  code: string;
  /** name is the language's own name: "Français", "العربية". */
  name: string;
  /** english is its English name: "French". */
  english: string;
  dir: 'ltr' | 'rtl';
}

/** SiteLanguages are a site's languages: the default, then the others, with their catalogue entries. */
export interface SiteLanguages {
  defaultLanguage: Language;
  /** others are the site's other languages in its order (empty: no switch anywhere). */
  others: Language[];
  catalogue: Language[];
}

/** MAX_OTHER_LANGUAGES: a site has at most 9 languages beside its default. */
export const MAX_OTHER_LANGUAGES = 9;

/** RTL_CODES are the right-to-left languages the catalogue holds, for a code it does not describe. */
const RTL_CODES = new Set(['ar', 'he', 'fa', 'ur']);

/** describe is a code's catalogue entry, or a plain one (its code as its names) when the catalogue lacks it. */
export function describe(code: string, catalogue: Language[]): Language {
  const found = catalogue.find((l) => l.code === code);
  if (found) return found;
  const base = code.split('-')[0].toLowerCase();
  return { code, name: code, english: code, dir: RTL_CODES.has(base) ? 'rtl' : 'ltr' };
}

/** readCatalogue takes GET /languages's answer (items at the top, or in the envelope's result) into the catalogue. */
export function readCatalogue(raw: unknown): Language[] {
  const obj = raw && typeof raw === 'object' ? (raw as Record<string, unknown>) : {};
  const result = obj.result && typeof obj.result === 'object' ? (obj.result as Record<string, unknown>) : undefined;
  const list = Array.isArray(obj.items) ? obj.items : Array.isArray(result?.items) ? result.items : Array.isArray(obj.result) ? obj.result : [];
  const out: Language[] = [];
  for (const item of list as unknown[]) {
    if (!item || typeof item !== 'object') continue;
    const l = item as Record<string, unknown>;
    if (typeof l.code !== 'string' || !l.code) continue;
    const name = typeof l.name === 'string' && l.name ? l.name : l.code;
    const english = typeof l.english === 'string' && l.english ? l.english : name;
    out.push({ code: l.code, name, english, dir: l.dir === 'rtl' ? 'rtl' : 'ltr' });
  }
  return out;
}

/** readCodes reads a `languages` value: a list of codes, or its JSON text (as a json field's form value holds it). */
export function readCodes(value: unknown): string[] {
  let list: unknown = value;
  if (typeof value === 'string') {
    const s = value.trim();
    if (!s) return [];
    try {
      list = JSON.parse(s);
    } catch {
      list = s.split(/[\s,]+/);
    }
  }
  if (!Array.isArray(list)) return [];
  const out: string[] = [];
  for (const c of list) if (typeof c === 'string' && c && !out.includes(c)) out.push(c);
  return out;
}

/** SiteChoice is what a site chose: its default language and the others (codes). */
export interface SiteChoice {
  defaultLanguage: string;
  languages: string[];
}

/**
 * readSiteChoice finds the site's choice in an answer: GET /languages's own defaultLanguage and
 * languages when it gives them, else the Site settings record's (GET /site-settings). Undefined when
 * the answer holds none.
 */
export function readSiteChoice(raw: unknown): SiteChoice | undefined {
  const obj = raw && typeof raw === 'object' ? (raw as Record<string, unknown>) : {};
  const from = (o: Record<string, unknown>): SiteChoice | undefined => {
    if (typeof o.defaultLanguage !== 'string' && o.languages === undefined) return undefined;
    const def = typeof o.defaultLanguage === 'string' && o.defaultLanguage ? o.defaultLanguage : 'en';
    return { defaultLanguage: def, languages: readCodes(o.languages).filter((c) => c !== def) };
  };
  return from(obj) ?? (obj.result && typeof obj.result === 'object' ? from(obj.result as Record<string, unknown>) : undefined);
}

/** siteLanguages joins a site's choice with the catalogue. */
export function siteLanguages(choice: SiteChoice, catalogue: Language[]): SiteLanguages {
  return {
    defaultLanguage: describe(choice.defaultLanguage, catalogue),
    others: choice.languages.slice(0, MAX_OTHER_LANGUAGES).map((c) => describe(c, catalogue)),
    catalogue,
  };
}

/** languageLabel is how a picker names a language: its own name, with the English one when different ("Français (French)"). */
export function languageLabel(l: Language): string {
  return l.english && l.english !== l.name ? `${l.name} (${l.english})` : l.name;
}
