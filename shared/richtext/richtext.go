// Package richtext makes the editor's HTML safe to store and to show: bluemonday's user-content
// policy. It is a package of its own so that only the groups serving rich text (content, public)
// link bluemonday, whose package initialisation (its CSS parser's tables and patterns) costs
// every other group's cold start about 2 ms.
package richtext

import (
	"sync"

	"github.com/microcosm-cc/bluemonday"
)

// policy is built on first use: it compiles dozens of regular expressions.
var policy = sync.OnceValue(bluemonday.UGCPolicy)

// Sanitize returns html with every element, attribute and URL scheme outside the policy removed.
func Sanitize(html string) string { return policy().Sanitize(html) }
