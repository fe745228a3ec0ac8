// Package formats holds the text formats more than one package accepts, one definition each:
// an email address, a calendar date, a URL slug, a hex colour. Patterns compile on first use (lazyre).
package formats

import (
	"strings"

	"github.com/campuscms/panel/shared/lazyre"
)

var (
	emailPattern = lazyre.New(`^[^\s@]+@[^\s@]+\.[^\s@]+$`)
	datePattern  = lazyre.New(`^\d{4}-\d{2}-\d{2}$`)
	slugPattern  = lazyre.New(`^[a-z0-9-]{1,100}$`)
	colorPattern = lazyre.New(`^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})$`)
)

// Email reports whether s looks like an email address (something@host.tld, at most 254 bytes).
func Email(s string) bool { return len(s) <= 254 && emailPattern().MatchString(s) }

// Date reports whether s is written YYYY-MM-DD (the calendar check is the caller's time.Parse).
func Date(s string) bool { return datePattern().MatchString(s) }

// Slug reports whether s is a URL slug: lowercase ASCII letters, digits and hyphens, 1 to 100.
func Slug(s string) bool { return slugPattern().MatchString(s) }

// Color reports whether s is a hex colour, #rgb or #rrggbb (either case).
func Color(s string) bool { return colorPattern().MatchString(s) }

// CSVCell defuses spreadsheet formula injection (OWASP "CSV Injection"): a cell starting with
// =, +, -, @, tab or carriage return is prefixed with a single quote, so a spreadsheet shows it as
// text instead of running it. Every CSV export writes its cells through it.
func CSVCell(s string) string {
	if s != "" && strings.ContainsRune("=+-@\t\r", rune(s[0])) {
		return "'" + s
	}
	return s
}
