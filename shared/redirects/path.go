package redirects

import (
	"net/http"
	"net/url"
	"strings"

	"github.com/campuscms/panel/shared/api"
)

// MaxFromPath is the longest stored fromPath, in bytes once normalised: far inside DynamoDB's
// 1,024-byte sort key, which holds it.
const MaxFromPath = 500

// MaxTo is the longest target, in bytes once normalised.
const MaxTo = 2000

// QueryKeys are the query parameters a fromPath may carry, one of them alone: WordPress's
// addresses that name an item by its id or slug (/?p=123, /?page_id=7, /?cat=3, /?tag=news,
// /?attachment_id=9), which an old site's visitors and search engines still hold.
var QueryKeys = []string{"p", "page_id", "cat", "tag", "attachment_id"}

// User-facing messages.
const (
	msgFromPath = "From Path must be a path on this website starting with /, without https:// or the domain (for example /about-us)."
	msgFragment = "From Path can't contain a #fragment: browsers never send it."
	msgSegments = "From Path can't contain empty, . or .. segments (// /./ /../)."
	msgEncoding = "From Path has a % that is not followed by two hex digits."
	msgHome     = "The home page can't be redirected."
	msgQuery    = "From Path can carry only one WordPress query such as ?p=123 (p, page_id, cat, tag or attachment_id); leave other query strings out."
	msgFromLong = "From Path must be at most 500 characters."
	msgTo       = "Redirect To must be a path on this website starting with / or a full address starting with https://."
	msgToHTTP   = "Redirect To must start with https:// (plain http:// is not allowed), or be a path on this website starting with /."
	msgToSpace  = "Redirect To can't contain spaces or control characters."
	msgToLong   = "Redirect To must be at most 2000 characters."
	msgToLogin  = "Redirect To can't carry a user name or password."
	msgToEscape = "Redirect To has a % that is not followed by two hex digits."
	msgLoop     = "A redirect can't point to itself."
	msgStatus   = "Status Code must be one of: 301, 302."
	fieldFrom   = "fromPath"
	fieldTo     = "to"
	fieldStatus = "statusCode"
	hexUpper    = "0123456789ABCDEF"
)

// Normalize returns fromPath as it is stored, or a 400 field error on fromPath. A stored fromPath
// is a path of this website: it starts with a single /, has no scheme, host or #fragment, no
// empty or dot segments and no trailing slash (/about/ is /about; / alone, the home page, is
// refused); its percent-encoding is normalised (an escaped character that needs none is
// decoded, one that does is escaped, in upper-case hex), so two spellings of one path are one
// redirect; its case is kept. It may carry one WordPress query (QueryKeys: /?p=123); any other
// query is refused. At most MaxFromPath bytes once normalised.
func Normalize(fromPath string) (string, error) {
	from, msg := normalizeFrom(fromPath)
	if msg != "" {
		return "", api.FieldError(http.StatusBadRequest, fieldFrom, msg)
	}
	return from, nil
}

// normalizeFrom is Normalize with its message.
func normalizeFrom(s string) (string, string) {
	s = strings.TrimSpace(s)
	switch {
	case s == "":
		return "", "From Path is required!"
	case !strings.HasPrefix(s, "/") || strings.HasPrefix(s, "//") || strings.HasPrefix(s, `/\`):
		return "", msgFromPath
	case strings.Contains(s, "#"):
		return "", msgFragment
	}
	path, query, _ := strings.Cut(s, "?")
	p, ok := normalPath(path)
	if !ok {
		return "", msgEncoding
	}
	p = trimSlash(p)
	if badSegments(p) {
		return "", msgSegments
	}
	if query != "" {
		q, ok := allowedQuery(query)
		if !ok {
			return "", msgQuery
		}
		p += "?" + q
	} else if p == "/" {
		return "", msgHome
	}
	if len(p) > MaxFromPath {
		return "", msgFromLong
	}
	return p, ""
}

// RequestKey is the stored fromPath a website request would be redirected from: its path
// (escapedPath, as the request spelled it) normalised as Normalize does, with the request's one
// WordPress query parameter when it has exactly one (other parameters, say utm_source, are
// ignored). ok is false when no stored fromPath can match (a malformed escape, the home page
// without such a query).
func RequestKey(escapedPath, rawQuery string) (string, bool) {
	p, ok := normalPath(escapedPath)
	if !ok || !strings.HasPrefix(p, "/") {
		return "", false
	}
	p = trimSlash(p)
	if q, ok := requestQuery(rawQuery); ok {
		p += "?" + q
	} else if p == "/" {
		return "", false
	}
	if len(p) > MaxFromPath {
		return "", false
	}
	return p, true
}

// trimSlash takes a trailing slash off a path (but not off / itself).
func trimSlash(p string) string {
	if len(p) > 1 && strings.HasSuffix(p, "/") {
		return p[:len(p)-1]
	}
	return p
}

// badSegments reports an empty, . or .. segment: the website's router sends such a request to
// the clean path first, so a redirect from it could never answer.
func badSegments(p string) bool {
	if p == "/" {
		return false
	}
	for _, seg := range strings.Split(p[1:], "/") {
		if seg == "" || seg == "." || seg == ".." || strings.EqualFold(seg, "%2E") || strings.EqualFold(seg, "%2E%2E") {
			return true
		}
	}
	return false
}

// allowedQuery is a fromPath's query normalised: exactly one key=value pair whose key is one of
// QueryKeys and whose value is not empty.
func allowedQuery(q string) (string, bool) {
	if strings.ContainsAny(q, "&;") {
		return "", false
	}
	k, v, ok := strings.Cut(q, "=")
	if !ok {
		return "", false
	}
	return queryPair(k, v)
}

// requestQuery is the one WordPress parameter of a request's query, normalised; ok is false when
// the query holds none, or more than one.
func requestQuery(raw string) (string, bool) {
	if raw == "" {
		return "", false
	}
	found, n := "", 0
	for _, part := range strings.Split(raw, "&") {
		k, v, _ := strings.Cut(part, "=")
		if pair, ok := queryPair(k, v); ok {
			found, n = pair, n+1
		}
	}
	return found, n == 1
}

// queryPair is key=value normalised when the key is one of QueryKeys and the value is not empty.
func queryPair(k, v string) (string, bool) {
	key, err := url.QueryUnescape(k)
	if err != nil || !allowedKey(key) {
		return "", false
	}
	val, err := url.QueryUnescape(v)
	if err != nil || val == "" {
		return "", false
	}
	return key + "=" + escapeBytes(val, unreserved), true
}

func allowedKey(k string) bool {
	for _, q := range QueryKeys {
		if k == q {
			return true
		}
	}
	return false
}

// normalPath normalises a path's percent-encoding: every escape decoded where its character may
// stand unescaped in a path segment (unreserved, sub-delims, : and @), kept (in upper case)
// where it may not (an escaped / stays escaped: it is not a segment separator), and every byte
// that may not stand unescaped (a space, non-ASCII, quotes, a backslash) escaped. ok is false for
// a % not followed by two hex digits.
func normalPath(p string) (string, bool) {
	var b strings.Builder
	b.Grow(len(p))
	for i := 0; i < len(p); i++ {
		c := p[i]
		switch {
		case c == '%':
			if i+2 >= len(p) || !isHex(p[i+1]) || !isHex(p[i+2]) {
				return "", false
			}
			v := unhex(p[i+1])<<4 | unhex(p[i+2])
			i += 2
			if pathChar(v) {
				b.WriteByte(v)
			} else {
				writeEscaped(&b, v)
			}
		case c == '/' || pathChar(c):
			b.WriteByte(c)
		default:
			writeEscaped(&b, c)
		}
	}
	return b.String(), true
}

// unreserved are RFC 3986's unreserved characters.
func unreserved(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '-' || c == '.' || c == '_' || c == '~'
}

// pathChar reports a character that may stand unescaped in a path segment (RFC 3986 pchar).
func pathChar(c byte) bool {
	return unreserved(c) || strings.IndexByte("!$&'()*+,;=:@", c) >= 0
}

// escapeBytes escapes every byte of s that keep does not allow.
func escapeBytes(s string, keep func(byte) bool) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if keep(s[i]) {
			b.WriteByte(s[i])
		} else {
			writeEscaped(&b, s[i])
		}
	}
	return b.String()
}

func writeEscaped(b *strings.Builder, c byte) {
	b.WriteByte('%')
	b.WriteByte(hexUpper[c>>4])
	b.WriteByte(hexUpper[c&15])
}

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

func unhex(c byte) byte {
	switch {
	case '0' <= c && c <= '9':
		return c - '0'
	case 'a' <= c && c <= 'f':
		return c - 'a' + 10
	}
	return c - 'A' + 10
}

// NormalizeTo returns a redirect's target as it is stored, or a 400 field error on to: a path of
// this website (starting with a single /; its query and fragment are kept) or an absolute
// https:// address (no user name or password). Bytes a URL may not hold raw (a space in a path,
// non-ASCII) are escaped and existing escapes kept, so the stored target is a valid Location:
// a backslash, which browsers read as a slash (/\evil.example), is escaped, and control
// characters are refused. Any other scheme (http:, javascript:, data:) is refused.
func NormalizeTo(to string) (string, error) {
	t, msg := normalizeTo(to)
	if msg != "" {
		return "", api.FieldError(http.StatusBadRequest, fieldTo, msg)
	}
	return t, nil
}

func normalizeTo(s string) (string, string) {
	s = strings.TrimSpace(s)
	if s == "" {
		return "", "Redirect To is required!"
	}
	for i := 0; i < len(s); i++ {
		if s[i] < 0x20 || s[i] == 0x7f {
			return "", msgToSpace
		}
	}
	var out string
	switch {
	case strings.HasPrefix(s, "/") && !strings.HasPrefix(s, "//") && !strings.HasPrefix(s, `/\`):
		var ok bool
		if out, ok = escapeTarget(s); !ok {
			return "", msgToEscape
		}
	case hasScheme(s, "https"):
		if strings.ContainsAny(s, " \\") {
			return "", msgToSpace
		}
		u, err := url.Parse(s)
		switch {
		case err != nil || u.Host == "" || u.Opaque != "" || strings.HasPrefix(u.Host, ":"):
			return "", msgTo
		case u.User != nil:
			return "", msgToLogin
		}
		u.Scheme = "https"
		out = u.String()
	case hasScheme(s, "http"):
		return "", msgToHTTP
	default:
		return "", msgTo
	}
	if len(out) > MaxTo {
		return "", msgToLong
	}
	return out, ""
}

// hasScheme reports whether s starts with scheme:// (in any case).
func hasScheme(s, scheme string) bool {
	return len(s) > len(scheme)+3 && strings.EqualFold(s[:len(scheme)], scheme) && s[len(scheme):len(scheme)+3] == "://"
}

// escapeTarget escapes what a path target may not hold raw, keeping existing escapes.
func escapeTarget(s string) (string, bool) {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '%':
			if i+2 >= len(s) || !isHex(s[i+1]) || !isHex(s[i+2]) {
				return "", false
			}
			b.WriteString(strings.ToUpper(s[i : i+3]))
			i += 2
		case c == '/' || c == '?' || c == '#' || pathChar(c):
			b.WriteByte(c)
		default:
			writeEscaped(&b, c)
		}
	}
	return b.String(), true
}

// loops reports whether a redirect from fromPath to target would send a visitor back to the
// same address: a path target that is fromPath once normalised as a request (/about/ from /about).
func loops(from, target string) bool {
	if !strings.HasPrefix(target, "/") {
		return false
	}
	target, _, _ = strings.Cut(target, "#")
	path, query, _ := strings.Cut(target, "?")
	key, ok := RequestKey(path, query)
	if !ok {
		// The home page without a WordPress query: a loop only from / itself, which is refused.
		return false
	}
	return key == from
}
