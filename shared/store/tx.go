package store

import (
	"fmt"

	"github.com/guregu/dynamo/v2"
)

// AddToTx queues items (each a *dynamo.Put, Update, Delete or ConditionCheck, as the word index
// and the hooks hand them over) in tx, in order. Anything else is a programming error.
func AddToTx(tx *dynamo.WriteTx, items ...any) {
	for _, item := range items {
		switch x := item.(type) {
		case *dynamo.Put:
			tx.Put(x)
		case *dynamo.Update:
			tx.Update(x)
		case *dynamo.Delete:
			tx.Delete(x)
		case *dynamo.ConditionCheck:
			tx.Check(x)
		default:
			panic(fmt.Sprintf("store: %T is not a transaction item", item))
		}
	}
}
