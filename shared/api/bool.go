package api

import (
	"encoding/json"
	"strings"
)

// ParseBool reads a boolean-like JSON value: true, false, 1, 0, "1", "0", "true", "false"
// (DESIGN §2: a status switch may arrive in any of these shapes); ok is false for anything else.
func ParseBool(raw json.RawMessage) (value, ok bool) {
	var v any
	if json.Unmarshal(raw, &v) != nil {
		return false, false
	}
	switch x := v.(type) {
	case bool:
		return x, true
	case float64:
		return x == 1, x == 0 || x == 1
	case string:
		switch strings.ToLower(strings.TrimSpace(x)) {
		case "1", "true":
			return true, true
		case "0", "false":
			return false, true
		}
	}
	return false, false
}
