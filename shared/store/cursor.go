package store

import (
	"encoding/base64"
	"encoding/json"
	"strings"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/guregu/dynamo/v2"
)

// EncodeCursor makes the last evaluated key of a Query (string attributes only, as every key of
// the table is) an opaque cursor for the next page; nil is "".
func EncodeCursor(k dynamo.PagingKey) string {
	if k == nil {
		return ""
	}
	out := map[string]string{}
	for name, v := range k {
		if s, ok := v.(*types.AttributeValueMemberS); ok {
			out[name] = s.Value
		}
	}
	raw, _ := json.Marshal(out)
	return base64.RawURLEncoding.EncodeToString(raw)
}

// DecodeCursor reads a cursor EncodeCursor made for a list of scope's tenant: a cursor naming
// another tenant's keys, or not made here, is not ok.
func DecodeCursor(s string, scope Scope) (dynamo.PagingKey, bool) {
	raw, err := base64.RawURLEncoding.DecodeString(s)
	if err != nil {
		return nil, false
	}
	var k map[string]string
	if json.Unmarshal(raw, &k) != nil || k["PK"] == "" || k["SK"] == "" || !strings.HasPrefix(k["PK"], scope.Root()+"#") {
		return nil, false
	}
	out := dynamo.PagingKey{}
	for name, v := range k {
		if strings.HasSuffix(name, "PK") && !strings.HasPrefix(v, scope.Root()+"#") {
			return nil, false
		}
		out[name] = &types.AttributeValueMemberS{Value: v}
	}
	return out, true
}
