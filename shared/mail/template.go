package mail

import (
	"bytes"
	"embed"
	"fmt"
	htmltemplate "html/template"
	"io/fs"
	"path"
	"strings"
	"sync"
	texttemplate "text/template"
)

// The mails' bodies: templates/{name}.txt (text/template: the text part, required) and
// templates/{name}.html (html/template: the HTML part, optional), each the "content" of
// layout.txt and layout.html. A feature adds its mail by adding its pair of files.
//
//go:embed templates/*.txt templates/*.html
var templateFiles embed.FS

// View is what a template sees: the institution's name (the message's FromName), the subject,
// and the caller's Data.
type View struct {
	Institution string
	Subject     string
	Data        any
}

// textView is what the text layout sees: the rendered content and the View.
type textView struct {
	View
	Content string
}

// Notice is the data of the "message" template: plain text (paragraphs separated by blank
// lines; line breaks kept) and an optional link with its label, shown as a button in the HTML
// part and as the address itself in both. A form's auto-reply is one.
type Notice struct {
	Body      string
	LinkLabel string
	LinkURL   string
}

// TemplateMessage is the generic template: Notice as its data.
const TemplateMessage = "message"

type templateSet struct {
	text map[string]*texttemplate.Template
	html map[string]*htmltemplate.Template
}

var funcs = map[string]any{
	// paragraphs splits plain text at blank lines, dropping empty paragraphs.
	"paragraphs": func(s string) []string {
		var out []string
		for _, p := range strings.Split(strings.ReplaceAll(s, "\r\n", "\n"), "\n\n") {
			if p = strings.Trim(p, "\n"); strings.TrimSpace(p) != "" {
				out = append(out, p)
			}
		}
		return out
	},
	// lines splits a paragraph into its lines.
	"lines": func(s string) []string { return strings.Split(s, "\n") },
}

// templates parses every pair once, at first use (it is the package's embedded files, the same
// for every caller).
var templates = sync.OnceValues(func() (*templateSet, error) {
	set := &templateSet{text: map[string]*texttemplate.Template{}, html: map[string]*htmltemplate.Template{}}
	textLayout, err := texttemplate.New("layout.txt").Funcs(funcs).ParseFS(templateFiles, "templates/layout.txt")
	if err != nil {
		return nil, fmt.Errorf("mail: templates: %w", err)
	}
	htmlLayout, err := htmltemplate.New("layout.html").Funcs(funcs).ParseFS(templateFiles, "templates/layout.html")
	if err != nil {
		return nil, fmt.Errorf("mail: templates: %w", err)
	}
	names, _ := fs.Glob(templateFiles, "templates/*")
	for _, file := range names {
		base := path.Base(file)
		name, ext := strings.TrimSuffix(base, path.Ext(base)), path.Ext(base)
		if name == "layout" {
			continue
		}
		body, err := templateFiles.ReadFile(file)
		if err != nil {
			return nil, err
		}
		switch ext {
		case ".txt":
			t, err := texttemplate.Must(textLayout.Clone()).New("content").Parse(string(body))
			if err != nil {
				return nil, fmt.Errorf("mail: template %s: %w", base, err)
			}
			set.text[name] = t.Lookup("layout.txt")
		case ".html":
			t, err := htmltemplate.Must(htmlLayout.Clone()).New("content").Parse(string(body))
			if err != nil {
				return nil, fmt.Errorf("mail: template %s: %w", base, err)
			}
			set.html[name] = t.Lookup("layout.html")
		}
	}
	for name := range set.html {
		if set.text[name] == nil {
			return nil, fmt.Errorf("mail: template %s.html has no %s.txt: every mail has a text part", name, name)
		}
	}
	return set, nil
})

// Templates lists the names of the package's mail templates.
func Templates() ([]string, error) {
	set, err := templates()
	if err != nil {
		return nil, err
	}
	var out []string
	for name := range set.text {
		out = append(out, name)
	}
	return out, nil
}

// Render fills the message's Text and HTML from the template pair name, with the message's
// FromName and Subject and data (View). The HTML part is escaped by html/template: what data
// holds (a visitor's message, a link) cannot add markup or script to it.
func (m *Message) Render(name string, data any) error {
	set, err := templates()
	if err != nil {
		return err
	}
	tt, ok := set.text[name]
	if !ok {
		return fmt.Errorf("mail: no template %q", name)
	}
	v := View{Institution: m.FromName, Subject: m.Subject, Data: data}
	// The text part's content first, trimmed, so the signature sits one blank line below it
	// whatever blank lines the template file ends with.
	var content, text bytes.Buffer
	if err := tt.ExecuteTemplate(&content, "content", v); err != nil {
		return fmt.Errorf("mail: render %s.txt: %w", name, err)
	}
	if err := tt.Execute(&text, textView{View: v, Content: strings.TrimSpace(content.String())}); err != nil {
		return fmt.Errorf("mail: render %s.txt: %w", name, err)
	}
	m.Text, m.HTML = strings.TrimSpace(text.String())+"\n", ""
	if ht, ok := set.html[name]; ok {
		var html bytes.Buffer
		if err := ht.Execute(&html, v); err != nil {
			return fmt.Errorf("mail: render %s.html: %w", name, err)
		}
		m.HTML = html.String()
	}
	return nil
}
