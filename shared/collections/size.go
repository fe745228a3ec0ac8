package collections

import (
	"fmt"
	"net/http"

	"github.com/campuscms/panel/shared/api"
)

// maxItemBytes keeps a stored record below DynamoDB's 400 KB (409,600 bytes) item limit with room
// for the counters and markers kept on it (refCount). Field limits alone cannot promise it: a
// collection may declare several large fields.
const maxItemBytes = 380_000

var errItemTooLarge = &api.Error{Status: http.StatusRequestEntityTooLarge,
	Message: fmt.Sprintf("This record is too large to save (at most %d KB in all). Shorten its longest texts.", maxItemBytes/1024)}

// checkItemSize refuses, with a 413, a record whose stored size would come near DynamoDB's item
// limit, where DynamoDB would refuse the write with an error that reads as a server fault.
func checkItemSize(rec Record) error {
	if itemSize(rec) > maxItemBytes {
		return errItemTooLarge
	}
	return nil
}

// itemSize is the record's size as DynamoDB counts it: UTF-8 bytes of each attribute name and
// string, at most 21 bytes a number, 1 a boolean or null, 3 plus 1 an element for lists and maps.
func itemSize(rec Record) int {
	n := 0
	for k, v := range rec {
		n += len(k) + valueSize(v)
	}
	return n
}

func valueSize(v any) int {
	switch x := v.(type) {
	case string:
		return len(x)
	case []byte:
		return len(x)
	case bool, nil:
		return 1
	case []string:
		n := 3
		for _, s := range x {
			n += 1 + len(s)
		}
		return n
	case []any:
		n := 3
		for _, e := range x {
			n += 1 + valueSize(e)
		}
		return n
	case map[string]any:
		return 3 + itemSize(x)
	default:
		return 21
	}
}
