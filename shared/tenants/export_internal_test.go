package tenants

import (
	"encoding/json"

	"github.com/guregu/dynamo/v2"
)

// EncodeItemJSON is one line of an archive's items/ entry, for tests that edit an archive.
func EncodeItemJSON(item dynamo.Item) ([]byte, error) {
	enc, err := encodeItem(item)
	if err != nil {
		return nil, err
	}
	return json.Marshal(enc)
}
