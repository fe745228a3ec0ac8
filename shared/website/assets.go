package website

import (
	"bytes"
	"embed"
	"fmt"
	"hash/crc32"
	"io/fs"
	"mime"
	"net/http"
	"path"
	"strings"
)

//go:embed assets
var assetFS embed.FS

// AssetsPath is where the website serves its own files: every host, cached for a year, since a
// file's name carries a hash of its content.
const AssetsPath = "/assets/"

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// asset is one served file.
type asset struct {
	body        []byte
	contentType string
}

// assetSet holds the website's files by hashed name, and each source name's hashed path.
type assetSet struct {
	byName map[string]asset  // "site.3f2a1c0d.js" → file
	paths  map[string]string // "site.js" → "/assets/site.3f2a1c0d.js"
}

// loadAssets hashes the embedded files, and builds one stylesheet per theme: the shared base
// followed by the theme's own, so a page loads exactly one CSS file.
func loadAssets(themeIDs []string) (*assetSet, error) {
	s := &assetSet{byName: map[string]asset{}, paths: map[string]string{}}
	read := func(name string) ([]byte, error) { return fs.ReadFile(assetFS, "assets/"+name) }
	js, err := read("site.js")
	if err != nil {
		return nil, err
	}
	s.add("site.js", js)
	base, err := read("base.css")
	if err != nil {
		return nil, err
	}
	for _, id := range themeIDs {
		own, err := read("themes/" + id + ".css")
		if err != nil {
			return nil, fmt.Errorf("website: theme %q has no assets/themes/%s.css: %w", id, id, err)
		}
		s.add("theme-"+id+".css", append(append(bytes.Clone(base), '\n'), own...))
	}
	fonts, err := fs.ReadDir(assetFS, "assets/fonts")
	if err != nil {
		return nil, err
	}
	for _, f := range fonts {
		b, err := read("fonts/" + f.Name())
		if err != nil {
			return nil, err
		}
		s.add("fonts/"+f.Name(), b)
	}
	return s, nil
}

func (s *assetSet) add(name string, body []byte) {
	// CRC-32C (hardware-accelerated) names a version well enough to bust caches, at a twentieth
	// of SHA-256's cost over the fonts at every cold start.
	ext := path.Ext(name)
	hashed := fmt.Sprintf("%s.%08x%s", strings.TrimSuffix(name, ext), crc32.Checksum(body, castagnoli), ext)
	ct := mime.TypeByExtension(ext)
	if ext == ".woff2" {
		ct = "font/woff2"
	}
	s.byName[hashed] = asset{body: body, contentType: ct}
	s.paths[name] = AssetsPath + hashed
}

// Path is the served path of a source file name; "" for one that does not exist.
func (s *assetSet) Path(name string) string { return s.paths[name] }

// serve answers GET /assets/{name...}: immutable, since the name changes with the content.
func (s *assetSet) serve(w http.ResponseWriter, r *http.Request) {
	a, ok := s.byName[r.PathValue("name")]
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
