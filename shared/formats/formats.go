// Package formats holds the text formats more than one package accepts, one definition each:
// an email address, a calendar date, a URL slug, a hex colour, a phone number, a time zone; and
// how a text is shortened for a title or a subject (Shorten). Patterns compile on first use
// (lazyre).
package formats

import (
	"strings"
	"time"
	"unicode/utf8"

	"github.com/campuscms/panel/shared/lazyre"
)

var (
	emailPattern = lazyre.New(`^[^\s@]+@[^\s@]+\.[^\s@]+$`)
	datePattern  = lazyre.New(`^\d{4}-\d{2}-\d{2}$`)
	slugPattern  = lazyre.New(`^[a-z0-9-]{1,100}$`)
	colorPattern = lazyre.New(`^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})$`)
	// phonePattern is a phone number as people write it: digits with spaces and + ( ) - . /,
	// at least three digits, and an extension after it ("ext. 204", "x204").
	phonePattern = lazyre.New(`^\+?[0-9 ().\/-]*[0-9][0-9 ().\/-]*[0-9][0-9 ().\/-]*[0-9][0-9 ().\/-]*(?: ?(?:[eE][xX][tT]\.?|[xX]) ?[0-9]{1,6})?$`)
	// zonePattern is the shape of an IANA time zone name: "UTC", "Europe/London",
	// "America/Argentina/Buenos_Aires", "Etc/GMT+5". Never a path (no leading slash, no dots).
	zonePattern = lazyre.New(`^[A-Za-z][A-Za-z0-9_+-]*(?:/[A-Za-z0-9][A-Za-z0-9_+-]*){0,3}$`)
)

// Email reports whether s looks like an email address (something@host.tld, at most 254 bytes).
func Email(s string) bool { return len(s) <= 254 && emailPattern().MatchString(s) }

// Date reports whether s is written YYYY-MM-DD (the calendar check is the caller's time.Parse).
func Date(s string) bool { return datePattern().MatchString(s) }

// Slug reports whether s is a URL slug: lowercase ASCII letters, digits and hyphens, 1 to 100.
func Slug(s string) bool { return slugPattern().MatchString(s) }

// Phone reports whether s is written as a phone number (at most 40 bytes): digits, spaces and
// + ( ) - . /, with an optional extension ("ext. 204").
func Phone(s string) bool { return len(s) <= 40 && phonePattern().MatchString(s) }

// Color reports whether s is a hex colour, #rgb or #rrggbb (either case).
func Color(s string) bool { return colorPattern().MatchString(s) }

// TimeZone returns the location an IANA time zone name stands for ("America/New_York"), from
// the time zone database (the system's, or the copy a Lambda embeds: its main imports
// time/tzdata). ok is false for anything else: a misspelt or unknown name, "Local" (the
// server's own zone, which means nothing to an institution), a POSIX rule, a file path.
func TimeZone(name string) (loc *time.Location, ok bool) {
	if len(name) > 64 || name == "Local" || !zonePattern().MatchString(name) {
		return nil, false
	}
	loc, err := time.LoadLocation(name)
	return loc, err == nil
}

// CSVCell defuses spreadsheet formula injection (OWASP "CSV Injection"): a cell starting with
// =, +, -, @, tab or carriage return is prefixed with a single quote, so a spreadsheet shows it as
// text instead of running it. Every CSV export writes its cells through it.
func CSVCell(s string) string {
	if s != "" && strings.ContainsRune("=+-@\t\r", rune(s[0])) {
		return "'" + s
	}
	return s
}

// Shorten is s cut to at most n characters (runes), ending with "…" when it was cut.
func Shorten(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	return string([]rune(s)[:n-1]) + "…"
}
