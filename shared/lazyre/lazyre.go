// Package lazyre compiles a regular expression on first use. Compiled at package initialisation,
// the panel's validation patterns cost every Lambda's cold start about 0.5 ms (a ULID pattern
// alone expands to 26 character classes), for checks most requests never reach.
package lazyre

import (
	"regexp"
	"sync"
)

// New returns a function that compiles expr the first time it is called and returns the same
// *regexp.Regexp ever after; like regexp.MustCompile it panics on an invalid expression.
func New(expr string) func() *regexp.Regexp {
	return sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(expr) })
}
