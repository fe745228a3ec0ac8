package wpimport

import (
	"net/url"
	"path"
	"strings"

	"github.com/campuscms/panel/shared/lazyre"
)

// uploadsDir is where WordPress keeps uploads, in every URL of one.
const uploadsDir = "wp-content/uploads/"

// Suffixes WordPress adds to an upload's file name: a size variant (-300x200), a big image's
// scaled-down original (-scaled, WordPress 5.3+), a rotated one (-rotated), an edit in the
// image editor (-e and a timestamp, -e1234567890123).
var (
	reSizeSuffix = lazyre.New(`-[0-9]+x[0-9]+$`)
	reEditSuffix = lazyre.New(`-e[0-9]{10,}$`)
)

// UploadPath returns a WordPress upload URL's path below wp-content/uploads/ ("2008/06/canola2.jpg")
// with a size variant's suffix removed (canola2-300x200.jpg → canola2.jpg, also -scaled, -rotated,
// -e1234567890 edits), ok=false if the URL is not under wp-content/uploads/. The path never
// climbs out of the uploads (no "..", "." or empty segment, no backslash), so a caller may join
// it to a directory.
func UploadPath(u string) (string, bool) {
	p := strings.TrimSpace(u)
	if parsed, err := url.Parse(p); err == nil {
		p = parsed.Path
	} else if i := strings.IndexAny(p, "?#"); i >= 0 {
		p = p[:i]
	}
	i := strings.Index(p, "/"+uploadsDir)
	switch {
	case i >= 0:
		p = p[i+1+len(uploadsDir):]
	case strings.HasPrefix(p, uploadsDir):
		p = p[len(uploadsDir):]
	default:
		return "", false
	}
	if p == "" || strings.Contains(p, `\`) {
		return "", false
	}
	for _, seg := range strings.Split(p, "/") {
		if seg == "" || seg == "." || seg == ".." {
			return "", false
		}
	}
	dir, file := path.Split(p)
	return dir + original(file), true
}

// original removes the suffixes WordPress adds to a file name ("photo-scaled-300x200.jpg" →
// "photo.jpg"), never the whole name.
func original(file string) string {
	ext := path.Ext(file)
	base := strings.TrimSuffix(file, ext)
	for {
		next := base
		switch {
		case reSizeSuffix().MatchString(base):
			next = reSizeSuffix().ReplaceAllString(base, "")
		case strings.HasSuffix(base, "-scaled"):
			next = strings.TrimSuffix(base, "-scaled")
		case strings.HasSuffix(base, "-rotated"):
			next = strings.TrimSuffix(base, "-rotated")
		case reEditSuffix().MatchString(base):
			next = reEditSuffix().ReplaceAllString(base, "")
		}
		if next == base || next == "" {
			return base + ext
		}
		base = next
	}
}

// Local reports whether u points at the old site (the Site's Link/BaseSiteURL/BaseBlogURL hosts,
// http or https, with or without www.), and returns its path and query ("/about/?lang=en"; "/"
// for the home page; the fragment dropped). A path-absolute URL ("/about/") or a query alone
// ("?page_id=2") is the old site's too; a relative path ("about/") is not taken.
func (s Site) Local(u string) (pathAndQuery string, ok bool) {
	parsed, err := url.Parse(strings.TrimSpace(u))
	if err != nil || parsed.Opaque != "" || parsed.User != nil {
		return "", false
	}
	switch {
	case parsed.Scheme == "" && parsed.Host == "":
		if !strings.HasPrefix(parsed.Path, "/") && !(parsed.Path == "" && parsed.RawQuery != "") {
			return "", false
		}
	case parsed.Scheme != "" && parsed.Scheme != "http" && parsed.Scheme != "https":
		return "", false
	default:
		if !s.isHost(parsed.Host) {
			return "", false
		}
	}
	p := parsed.EscapedPath()
	if p == "" {
		p = "/"
	}
	if parsed.RawQuery != "" {
		p += "?" + parsed.RawQuery
	}
	return p, true
}

// isHost reports whether host is one of the site's.
func (s Site) isHost(host string) bool {
	h := siteHost(host)
	if h == "" {
		return false
	}
	for _, u := range []string{s.Link, s.BaseSiteURL, s.BaseBlogURL} {
		if p, err := url.Parse(strings.TrimSpace(u)); err == nil && p.Host != "" && siteHost(p.Host) == h {
			return true
		}
	}
	return false
}

// siteHost is host lower-cased, without www., a default port or a trailing dot.
func siteHost(host string) string {
	h := strings.ToLower(host)
	h = strings.TrimSuffix(strings.TrimSuffix(h, ":80"), ":443")
	h = strings.TrimSuffix(h, ".")
	return strings.TrimPrefix(h, "www.")
}
