package mail_test

import (
	"strings"
	"testing"

	"github.com/campuscms/panel/shared/mail"
)

// TestTemplatesHaveTextAndNoTracking: every template renders a text part; the HTML part escapes
// what the data holds (a visitor's text cannot add markup or script, a javascript: link is
// neutralised) and loads nothing from anywhere (no image, no pixel, no remote style).
func TestTemplatesHaveTextAndNoTracking(t *testing.T) {
	t.Parallel()
	names, err := mail.Templates()
	if err != nil {
		t.Fatal(err)
	}
	if len(names) == 0 {
		t.Fatal("no templates")
	}
	for _, name := range names {
		m := mail.Message{FromName: "Inst", Subject: "S"}
		// A map, not mail.Notice: each feature's template has data of its own shape, and a key
		// the map lacks renders as nothing where a struct's missing field would fail.
		if err := m.Render(name, map[string]any{"Body": "b", "LinkURL": "https://x.example.org/a"}); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if strings.TrimSpace(m.Text) == "" {
			t.Errorf("%s: no text part", name)
		}
		low := strings.ToLower(m.HTML)
		for _, bad := range []string{"<img", "<script", "<link", "<iframe", "url(", "@import", "src="} {
			if strings.Contains(low, bad) {
				t.Errorf("%s: the HTML part contains %q", name, bad)
			}
		}
	}

	m := mail.Message{FromName: "St. Mary's <College>", Subject: "Thanks"}
	err = m.Render(mail.TemplateMessage, mail.Notice{
		Body:      "Hello <b>there</b>\nsecond line\n\n<script>alert(1)</script>",
		LinkLabel: "Open", LinkURL: "javascript:alert(1)",
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"Hello &lt;b&gt;there&lt;/b&gt;<br>second line", "&lt;script&gt;alert(1)&lt;/script&gt;",
		`href="#ZgotmplZ"`, "St. Mary&#39;s &lt;College&gt;"} {
		if !strings.Contains(m.HTML, want) {
			t.Errorf("HTML part lacks %q:\n%s", want, m.HTML)
		}
	}
	if strings.Contains(m.HTML, "<script>") || strings.Contains(m.HTML, `href="javascript`) {
		t.Fatalf("HTML part carries script:\n%s", m.HTML)
	}
	wantText := "Hello <b>there</b>\nsecond line\n\n<script>alert(1)</script>\n\nOpen: javascript:alert(1)\n\n-- \nSt. Mary's <College>\n"
	if m.Text != wantText {
		t.Errorf("text part %q\nwant      %q", m.Text, wantText)
	}
	if err := m.Render("no-such-template", nil); err == nil {
		t.Error("an unknown template rendered")
	}
}
