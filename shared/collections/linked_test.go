package collections_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/campuscms/panel/shared/collections"
	"github.com/campuscms/panel/shared/richtext"
)

// A group's main links only what its collections need; forgetting something a declaration needs
// fails at start-up, not on the first request.
func TestRegisterNeedsWhatTheDeclarationsUse(t *testing.T) {
	reg, err := collections.Load()
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name    string
		linked  collections.Linked
		key     string
		wantErr string
	}{
		{"rich text without a sanitiser", collections.Linked{}, "albums", "albums.description is rich text"},
		{"rich text with one", collections.Linked{RichText: richtext.Sanitize}, "albums", ""},
		{"no rich text, nothing linked", collections.Linked{}, "faqs", ""},
		{"declared hooks not linked", collections.Linked{RichText: richtext.Sanitize}, "pages", `declares hooks "pages"`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := collections.NewService(nil, nil, reg, c.linked)
			err := s.Register(http.NewServeMux(), "/api/v1/tenant", c.key)
			switch {
			case c.wantErr == "" && err != nil:
				t.Fatalf("Register(%s) = %v", c.key, err)
			case c.wantErr != "" && (err == nil || !strings.Contains(err.Error(), c.wantErr)):
				t.Fatalf("Register(%s) = %v, want an error containing %q", c.key, err, c.wantErr)
			}
		})
	}
}
