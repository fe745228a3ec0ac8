package website_test

import (
	"encoding/xml"
	"maps"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/campuscms/panel/shared/testkit"
	"github.com/campuscms/panel/shared/themes"
)

// multilingual is a tenant publishing in English (default), French and Arabic, with a page, an
// event, a notice, a staff member and a form, partly translated: the page's title in both (its
// slug in French), its description in neither; the event's title in French.
type multilingual struct {
	tn                        testkit.Tenant
	slug, event, notice, form string
}

func newMultilingual(t *testing.T) multilingual {
	t.Helper()
	m := multilingual{tn: testkit.NewTenant(t)}
	staff(t, m.tn, "PATCH", "/site-settings", map[string]any{"languages": []string{"fr", "ar"}})
	_, m.slug = newPage(t, m.tn, "About us", map[string]any{"translations": map[string]any{
		"fr": map[string]any{"title": "À propos", "slug": "a-propos"},
		"ar": map[string]any{"title": "من نحن"},
	}})
	soon := time.Now().AddDate(0, 0, 5).Format(time.DateOnly)
	m.event = staff(t, m.tn, "POST", "/events", map[string]any{"title": "Open day", "startDate": soon, "location": "Main hall",
		"translations": map[string]any{"fr": map[string]any{"title": "Journée portes ouvertes"}}}).Get("result.id").(string)
	m.notice = staff(t, m.tn, "POST", "/notices", map[string]any{"title": "Term starts", "message": "Monday.",
		"translations": map[string]any{"ar": map[string]any{"title": "بداية الفصل"}}}).Get("result.id").(string)
	staff(t, m.tn, "POST", "/staff-members", map[string]any{"name": "Ada Lovelace", "role": "Teacher"})
	m.form = staff(t, m.tn, "GET", "/custom-forms?limit=5", nil).Get("result.0.id").(string)
	return m
}

func mustNot(t *testing.T, p page, absent ...string) {
	t.Helper()
	for _, a := range absent {
		if strings.Contains(p.body, a) {
			t.Fatalf("page holds %q: %.3000s", a, p.body)
		}
	}
}

// TestLanguagesOnEveryPageType: in every theme, the French and Arabic addresses of every page
// type answer in their language (<html lang dir>, the theme's words, dates), with the header's
// switch (each link in its own language, the current one marked) and the hreflang alternates
// with x-default; fields without a translation carry the default language's lang (and dir on an
// Arabic page).
func TestLanguagesOnEveryPageType(t *testing.T) {
	m := newMultilingual(t)
	origin := "http://" + m.tn.ID + ".localhost:8080"
	inEveryTheme(t, m.tn, func(th themes.Theme) {
		fr := get(t, m.tn, "/fr/")
		must(t, fr, 200, `<html lang="fr" dir="ltr"`, `<nav class="lang-switch" aria-label="Langue">`,
			`<a href="/" lang="en" hreflang="en">English</a>`, `<a href="/fr/" lang="fr" hreflang="fr" aria-current="true">Français</a>`,
			`<a href="/ar/" lang="ar" hreflang="ar" dir="rtl">العربية</a>`,
			`<link rel="alternate" hreflang="en" href="`+origin+`/">`, `<link rel="alternate" hreflang="fr" href="`+origin+`/fr/">`,
			`<link rel="alternate" hreflang="ar" href="`+origin+`/ar/">`, `<link rel="alternate" hreflang="x-default" href="`+origin+`/">`,
			"Événements à venir", "Journée portes ouvertes", `href="/fr/events/`+m.event+`"`, `<a href="/fr/events">Tous les événements</a>`,
			`<link rel="canonical" href="`+origin+`/fr/">`)
		ar := get(t, m.tn, "/ar/")
		must(t, ar, 200, `<html lang="ar" dir="rtl"`, "الفعاليات القادمة", `aria-current="true">العربية</a>`,
			`<a href="/fr/" lang="fr" hreflang="fr" dir="ltr">Français</a>`,
			// The event's title has no Arabic: shown in English, marked as such.
			`lang="en" dir="ltr">Open day</a>`, "بداية الفصل")

		// A page by its slug in each language; its description has no translation.
		p := get(t, m.tn, "/fr/a-propos")
		must(t, p, 200, `<h1>À propos</h1>`, `<p class="lead" lang="en">About the page</p>`,
			`<a href="/`+m.slug+`" lang="en" hreflang="en">English</a>`, `<a href="/ar/`+m.slug+`" lang="ar" hreflang="ar" dir="rtl">`,
			`<link rel="alternate" hreflang="fr" href="`+origin+`/fr/a-propos">`, `<link rel="alternate" hreflang="x-default" href="`+origin+`/`+m.slug+`">`)
		must(t, get(t, m.tn, "/ar/"+m.slug), 200, `<h1>من نحن</h1>`, `<p class="lead" lang="en" dir="ltr">About the page</p>`)
		en := get(t, m.tn, "/"+m.slug)
		must(t, en, 200, `<html lang="en" dir="ltr"`, `<h1>About us</h1>`, `<a href="/fr/a-propos" lang="fr" hreflang="fr">Français</a>`)
		mustNot(t, en, `<p class="lead" lang=`, `<h1 lang=`)
		// The default slug in French: the page's French address.
		if r := get(t, m.tn, "/fr/"+m.slug); r.status != 301 || r.header.Get("Location") != "/fr/a-propos" {
			t.Errorf("/fr/%s: %d %q", m.slug, r.status, r.header.Get("Location"))
		}

		must(t, get(t, m.tn, "/fr/events"), 200, `<html lang="fr"`, "<h1>Événements</h1>", "Journée portes ouvertes", `<p class="meta" lang="en">Main hall</p>`)
		must(t, get(t, m.tn, "/fr/events/"+m.event), 200, "<h1>Journée portes ouvertes</h1>", "Ajouter à l’agenda",
			`<link rel="alternate" hreflang="ar" href="`+origin+`/ar/events/`+m.event+`">`, `href="/events/`+m.event+`" lang="en" hreflang="en"`)
		must(t, get(t, m.tn, "/ar/notices/"+m.notice), 200, `<h1>بداية الفصل</h1>`, `<div lang="en" dir="ltr"><p>Monday.</p></div>`)
		must(t, get(t, m.tn, "/fr/notices"), 200, "<h1>Avis</h1>")
		must(t, get(t, m.tn, "/ar/staff"), 200, `<html lang="ar" dir="rtl"`, "<h1>فريقنا</h1>", "Ada Lovelace")
		must(t, get(t, m.tn, "/fr/search?q=open"), 200, "Résultats pour « open »", `action="/fr/search"`)
		must(t, get(t, m.tn, "/fr/forms/"+m.form), 200, `<html lang="fr"`, `action="/fr/forms/`+m.form+`"`, ">Envoyer</button>")
		must(t, get(t, m.tn, "/ar/accessibility"), 200, "<h1>بيان إمكانية الوصول</h1>")

		// The 404 in the language; a language the site lacks is the default's address.
		nf := get(t, m.tn, "/fr/no-such-page")
		must(t, nf, 404, `<html lang="fr"`, "Page introuvable", `<a href="/ar/" lang="ar"`)
		mustNot(t, nf, `rel="alternate" hreflang`)
		must(t, get(t, m.tn, "/de/events"), 404, `<html lang="en"`, "Page not found")
	})
	// The default language has one address, without its prefix.
	for from, to := range map[string]string{"/en/events": "/events", "/en/": "/", "/en": "/", "/en/search?q=a": "/search?q=a"} {
		if r := get(t, m.tn, from); r.status != 301 || r.header.Get("Location") != to {
			t.Errorf("%s: %d %q, want 301 %s", from, r.status, r.header.Get("Location"), to)
		}
	}
	// The redirects are old addresses of the default language's site: /fr/?p=9 is the French home.
	staff(t, m.tn, "POST", "/redirects", map[string]any{"fromPath": "/?p=9", "to": "/faqs"})
	staff(t, m.tn, "POST", "/redirects", map[string]any{"fromPath": "/old-about", "to": "/events"})
	if r := get(t, m.tn, "/?p=9"); r.status != 301 {
		t.Errorf("/?p=9: %d", r.status)
	}
	must(t, get(t, m.tn, "/fr/?p=9"), 200, `<html lang="fr"`)
	must(t, get(t, m.tn, "/fr/old-about"), 404, "Page introuvable")
	// The feeds and the sitemap are at one address.
	must(t, get(t, m.tn, "/fr/sitemap.xml"), 404)
}

// TestLanguagePrefixOfAPageSlug: on a site without German, /de is the page whose slug is "de".
func TestLanguagePrefixOfAPageSlug(t *testing.T) {
	tn := testkit.NewTenant(t)
	res := staff(t, tn, "POST", "/pages", map[string]any{"title": "De", "slug": "de", "isPublished": true})
	slug := res.Get("result.slug").(string)
	if slug != "de" {
		t.Skipf("the page's slug is %q", slug)
	}
	must(t, get(t, tn, "/de"), 200, "<h1>De</h1>", `<html lang="en"`)
	must(t, get(t, tn, "/de/events"), 404, "Page not found")
}

// TestOneLanguageHasNoSwitch: a site in one language has no switch and no alternates, and no
// other language's addresses.
func TestOneLanguageHasNoSwitch(t *testing.T) {
	tn := testkit.NewTenant(t)
	p := get(t, tn, "/")
	must(t, p, 200, `<html lang="en" dir="ltr"`)
	mustNot(t, p, `<nav class="lang-switch"`, "hreflang")
	must(t, get(t, tn, "/fr/"), 404, "Page not found")
}

// TestSitemapLanguages: the sitemap lists each page and list page at its address in every
// language (a page by its slug there), each with every language's address and x-default as
// xhtml:link alternates; under the "hide" policy a page without a published translation is
// listed in the default language alone.
func TestSitemapLanguages(t *testing.T) {
	m := newMultilingual(t)
	origin := "http://" + m.tn.ID + ".localhost:8080"
	type link struct {
		HrefLang string `xml:"hreflang,attr"`
		Href     string `xml:"href,attr"`
	}
	read := func() map[string][]link {
		t.Helper()
		p := get(t, m.tn, "/sitemap.xml")
		must(t, p, 200, `xmlns:xhtml="http://www.w3.org/1999/xhtml"`)
		var set struct {
			URLs []struct {
				Loc   string `xml:"http://www.sitemaps.org/schemas/sitemap/0.9 loc"`
				Links []link `xml:"http://www.w3.org/1999/xhtml link"`
			} `xml:"http://www.sitemaps.org/schemas/sitemap/0.9 url"`
		}
		if err := xml.Unmarshal([]byte(p.body), &set); err != nil {
			t.Fatalf("%v: %s", err, p.body)
		}
		out := map[string][]link{}
		for _, u := range set.URLs {
			out[strings.TrimPrefix(u.Loc, origin)] = u.Links
		}
		return out
	}
	urls := read()
	page := []link{{"en", origin + "/" + m.slug}, {"fr", origin + "/fr/a-propos"}, {"ar", origin + "/ar/" + m.slug}, {"x-default", origin + "/" + m.slug}}
	for _, loc := range []string{"/" + m.slug, "/fr/a-propos", "/ar/" + m.slug} {
		if got := urls[loc]; !slices.Equal(got, page) {
			t.Errorf("%s: alternates %v, want %v", loc, got, page)
		}
	}
	events := []link{{"en", origin + "/events"}, {"fr", origin + "/fr/events"}, {"ar", origin + "/ar/events"}, {"x-default", origin + "/events"}}
	for _, loc := range []string{"/events", "/fr/events", "/ar/events"} {
		if got := urls[loc]; !slices.Equal(got, events) {
			t.Errorf("%s: alternates %v, want %v", loc, got, events)
		}
	}
	if _, ok := urls["/fr/"]; !ok {
		t.Errorf("the French home page is not listed: %v", slices.Collect(maps.Keys(urls)))
	}
	// Hide: the page's Arabic translation is kept back, so it is listed in English and French.
	staff(t, m.tn, "PATCH", "/site-settings", map[string]any{"missingTranslation": "hide"})
	id := staff(t, m.tn, "GET", "/pages?limit=5&search="+url.QueryEscape("About us"), nil).Get("result.0.id").(string)
	staff(t, m.tn, "PATCH", "/pages/"+id, map[string]any{"translations": map[string]any{"ar": map[string]any{"published": false}}})
	urls = read()
	if _, ok := urls["/ar/"+m.slug]; ok {
		t.Error("a page kept back in Arabic is listed at its Arabic address")
	}
	if got := urls["/fr/a-propos"]; len(got) != 3 || got[1].Href != origin+"/fr/a-propos" {
		t.Errorf("/fr/a-propos under hide: %v", got)
	}
	must(t, get(t, m.tn, "/ar/"+m.slug), 404)
	// The switch links the Arabic home instead, and the page names no Arabic alternate.
	fr := get(t, m.tn, "/fr/a-propos")
	must(t, fr, 200, `<a href="/ar/" lang="ar" hreflang="ar" dir="rtl">العربية</a>`, `<link rel="alternate" hreflang="en"`)
	mustNot(t, fr, `<link rel="alternate" hreflang="ar"`)
}
