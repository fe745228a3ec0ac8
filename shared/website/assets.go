package website

import (
	"embed"
	"fmt"
	"hash/crc32"
	"html/template"
	"io/fs"
	"net/http"
	"path"
	"strings"
	"sync"
)

//go:embed assets
var assetFS embed.FS

// AssetsPath is where the website serves its own files: every host, cached for a year, since a
// file's name carries a hash of its content.
const AssetsPath = "/assets/"

// asset is one served file, read and named on first use.
type asset struct {
	once        sync.Once
	read        func() ([]byte, error)
	body        []byte
	hashed      string // "site.3f2a1c0d.js"
	contentType string
	// inline is a stylesheet as a page's <style> holds it (Inline), made once with the rest.
	inline template.CSS
	err    error
}

// load reads the file and names it by its content: CRC-32 (hardware-accelerated) names a
// version well enough to bust caches, at a twentieth of SHA-256's cost (IEEE's polynomial:
// CRC-32C first builds tables, 0.2 ms on amd64).
func (a *asset) load(name string) {
	a.once.Do(func() {
		if a.body, a.err = a.read(); a.err != nil {
			return
		}
		ext := path.Ext(name)
		a.hashed = fmt.Sprintf("%s.%08x%s", strings.TrimSuffix(name, ext), crc32.ChecksumIEEE(a.body), ext)
		if ext == ".css" {
			a.inline = template.CSS(strings.ReplaceAll(string(a.body), "</", `<\/`)) //nolint:gosec // the website's own embedded CSS
		}
	})
}

// assetSet holds the website's files by source name ("site.js", "theme-classic.css",
// "fonts/arimo-400.woff2"). Nothing is read at start-up: a file is read and hashed when a page
// first names it or a browser first asks for it, so a cold start does not copy the 400 KB of
// fonts, and a page reads only its theme's stylesheet and its font.
type assetSet struct {
	files map[string]*asset
}

// loadAssets lists the embedded files, and one stylesheet per theme (the shared base followed
// by the theme's own, so a page loads exactly one CSS file). Every file must exist and have a
// declared content type.
func loadAssets(themeIDs []string) (*assetSet, error) {
	s := &assetSet{files: map[string]*asset{}}
	read := func(name string) func() ([]byte, error) {
		return func() ([]byte, error) { return fs.ReadFile(assetFS, "assets/"+name) }
	}
	if err := s.add("site.js", read("site.js")); err != nil {
		return nil, err
	}
	for _, id := range themeIDs {
		own := "themes/" + id + ".css"
		if _, err := fs.Stat(assetFS, "assets/"+own); err != nil {
			return nil, fmt.Errorf("website: theme %q has no assets/%s: %w", id, own, err)
		}
		err := s.add("theme-"+id+".css", func() ([]byte, error) {
			base, err := fs.ReadFile(assetFS, "assets/base.css")
			if err != nil {
				return nil, err
			}
			theme, err := fs.ReadFile(assetFS, "assets/"+own)
			return append(append(base, '\n'), theme...), err
		})
		if err != nil {
			return nil, err
		}
	}
	fonts, err := fs.ReadDir(assetFS, "assets/fonts")
	if err != nil {
		return nil, err
	}
	for _, f := range fonts {
		if err := s.add("fonts/"+f.Name(), read("fonts/"+f.Name())); err != nil {
			return nil, err
		}
	}
	return s, nil
}

func (s *assetSet) add(name string, read func() ([]byte, error)) error {
	ct, ok := assetTypes[path.Ext(name)]
	if !ok {
		return fmt.Errorf("website: assets/%s: no content type for %q files (assetTypes)", name, path.Ext(name))
	}
	s.files[name] = &asset{read: read, contentType: ct}
	return nil
}

// assetTypes are the content types of the kinds of files the website serves. Declared, not
// asked of package mime: its first lookup reads the machine's MIME database (4 ms of a cold
// start where /usr/share/mime is installed).
var assetTypes = map[string]string{
	".js":    "text/javascript; charset=utf-8",
	".css":   "text/css; charset=utf-8",
	".woff2": "font/woff2",
}

// Path is the served path of a source file name; "" for one that does not exist (or cannot be
// read).
func (s *assetSet) Path(name string) string {
	a, ok := s.files[name]
	if !ok {
		return ""
	}
	if a.load(name); a.err != nil {
		return ""
	}
	return AssetsPath + a.hashed
}

// Inline is the content of a stylesheet, for a page's <style>: the theme's stylesheet is written
// into the page, so the first paint waits for no second round trip (about 4.5 kB gzipped, which
// the page's own compression takes; its print rules print as before). "" for a file that does
// not exist (or cannot be read). Made once, when the file is first read: every page of a theme
// writes the same text. The CSS is the website's own: nothing in it ends a <style>.
func (s *assetSet) Inline(name string) template.CSS {
	a, ok := s.files[name]
	if !ok {
		return ""
	}
	a.load(name)
	return a.inline
}

// byHashedName finds the file a served name stands for: "site.3f2a1c0d.js" is site.js, if its
// content still hashes to 3f2a1c0d.
func (s *assetSet) byHashedName(hashed string) (*asset, bool) {
	ext := path.Ext(hashed)
	stem := strings.TrimSuffix(hashed, ext)
	dot := strings.LastIndexByte(stem, '.')
	if dot < 0 {
		return nil, false
	}
	name := stem[:dot] + ext
	a, ok := s.files[name]
	if !ok {
		return nil, false
	}
	a.load(name)
	return a, a.err == nil && a.hashed == hashed
}

// serve answers GET /assets/{name...}: immutable, since the name changes with the content.
func (s *assetSet) serve(w http.ResponseWriter, r *http.Request) {
	a, ok := s.byHashedName(r.PathValue("name"))
	if !ok {
		http.NotFound(w, r)
		return
	}
	h := w.Header()
	h.Set("Content-Type", a.contentType)
	h.Set("Cache-Control", "public, max-age=31536000, immutable")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Access-Control-Allow-Origin", "*")
	if r.Method == http.MethodHead {
		return
	}
	_, _ = w.Write(a.body)
}
