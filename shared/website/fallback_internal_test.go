package website

import (
	"testing"

	"github.com/campuscms/panel/shared/forms"
	"github.com/campuscms/panel/shared/public"
)

// A section's, a menu item's or a form's text shown in the default language on a translated page carries
// the default language's lang (and dir where it differs), as a record's fields do.
func TestFallbackMarksSectionsAndMenuItems(t *testing.T) {
	ar := newLocale("ar", "en")
	sec := public.Section{FallbackFields: []string{"title"}}
	if got := fallbackAttr(ar, sec, "title"); got != ` lang="en" dir="ltr"` {
		t.Fatalf("section title: %q", got)
	}
	if got := fallbackAttr(ar, sec, "subTitle"); got != "" {
		t.Fatalf("translated subtitle marked: %q", got)
	}
	item := public.MenuItem{FallbackFields: []string{"label"}}
	if got := fallbackAttr(newLocale("fr", "en"), item, "label"); got != ` lang="en"` {
		t.Fatalf("menu label: %q", got)
	}
	if got := fallbackAttr(newLocale("en", "en"), item, "label"); got != "" {
		t.Fatalf("default language marked: %q", got)
	}
	form := forms.Form{Fallback: []string{"description"}}
	if got := fallbackAttr(newLocale("fr", "en"), form, "description"); got != ` lang="en"` {
		t.Fatalf("form description: %q", got)
	}
	field := fieldView{Field: forms.Field{Fallback: []string{"hint", "options"}}}
	if got := fallbackAttr(ar, field, "options"); got != ` lang="en" dir="ltr"` {
		t.Fatalf("form options: %q", got)
	}
	if got := fallbackAttr(ar, field, "label"); got != "" {
		t.Fatalf("translated label marked: %q", got)
	}
}
