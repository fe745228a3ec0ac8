package listing

import (
	"encoding/base64"
	"encoding/json"
	"maps"
	"net/http"
	"slices"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/guregu/dynamo/v2"

	"github.com/campuscms/panel/shared/api"
)

// errBadCursor answers a cursor that is malformed or belongs to another list (another tenant,
// collection, search or order): it is never used as a start key.
var errBadCursor = api.FieldError(http.StatusBadRequest, "cursor", "This page link is no longer valid; please go back to page 1.")

// cursor is the position after (or, Back, before) one item of one query. It is plain
// base64url JSON, not a secret: what makes it safe is that decode checks every key attribute
// against the query the caller is entitled to run, so a forged cursor can only point inside
// the caller's own list.
type cursor struct {
	Index string            `json:"ix"`
	Hash  string            `json:"h"`
	Query string            `json:"q,omitempty"`
	Desc  bool              `json:"d,omitempty"`
	Back  bool              `json:"b,omitempty"`
	Keys  map[string]string `json:"k"`
}

// cursorAt is the cursor of item it within the plan's query.
func (p plan) cursorAt(it dynamo.Item, back bool) string {
	c := cursor{Index: p.index, Hash: p.hash, Query: p.prefix, Desc: p.desc, Back: back, Keys: map[string]string{}}
	for _, a := range p.keyAttrs() {
		if s, ok := it[a].(*types.AttributeValueMemberS); ok {
			c.Keys[a] = s.Value
		}
	}
	b, _ := json.Marshal(c)
	return base64.RawURLEncoding.EncodeToString(b)
}

// decodeCursor returns the start key the cursor stands for, after checking it belongs to p.
func (p plan) decodeCursor(s string) (start dynamo.PagingKey, back bool, err error) {
	raw, err := base64.RawURLEncoding.DecodeString(s)
	if err != nil {
		return nil, false, errBadCursor
	}
	var c cursor
	if err := json.Unmarshal(raw, &c); err != nil {
		return nil, false, errBadCursor
	}
	want := p.keyAttrs()
	got := slices.Sorted(maps.Keys(c.Keys))
	if c.Index != p.index || c.Hash != p.hash || c.Query != p.prefix || c.Desc != p.desc ||
		!slices.Equal(got, slices.Sorted(slices.Values(want))) ||
		c.Keys[p.hashAttr()] != p.hash || c.Keys["PK"] != p.partition {
		return nil, false, errBadCursor
	}
	key := dynamo.PagingKey{}
	for a, v := range c.Keys {
		key[a] = &types.AttributeValueMemberS{Value: v}
	}
	return key, c.Back, nil
}
