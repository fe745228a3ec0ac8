package store_test

import (
	"context"
	"testing"

	"github.com/guregu/dynamo/v2"

	"github.com/campuscms/panel/shared/awsclient"
	"github.com/campuscms/panel/shared/store"
	"github.com/campuscms/panel/shared/testkit"
)

func TestMain(m *testing.M) { testkit.Main(m) }

// A transaction whose last attempt is applied but never answered (the SDK's three retries were
// throttled, the fourth was lost on the way back) is asked again with its token: the caller hears
// of the write it made, once, instead of a failure.
func TestUnansweredTransactionIsAskedAgain(t *testing.T) {
	t.Parallel()
	tn := testkit.NewTenant(t)
	st := testkit.Deps(t).Store
	faults := testkit.Faults(t)
	calls := func() int { return faults.Count("dynamodb", "TransactWriteItems", tn.ID) }
	start := calls()
	for _, f := range []awsclient.Fault{
		{Service: "dynamodb", Op: "TransactWriteItems", Match: tn.ID, Times: 3, Status: 400, Code: "ProvisionedThroughputExceededException"},
		{Service: "dynamodb", Op: "TransactWriteItems", Match: tn.ID, Times: 1, LoseResponse: true},
	} {
		defer faults.Inject(f)()
	}
	scope, err := store.NewScope(tn.ID)
	if err != nil {
		t.Fatal(err)
	}
	item := map[string]any{"PK": scope.Partition("PROBE"), "SK": "once", "n": 1}
	err = st.WriteTx().Put(st.Table.Put(item).If("attribute_not_exists(PK)")).Run(context.Background())
	if err != nil {
		t.Fatalf("write applied but reported as %v", err)
	}
	if n := calls() - start; n != 5 {
		t.Errorf("%d calls, want 4 attempts and 1 more ask", n)
	}
	var got map[string]any
	if err := st.Table.Get("PK", item["PK"]).Range("SK", dynamo.Equal, "once").One(context.Background(), &got); err != nil || got["n"] != float64(1) {
		t.Errorf("item %v, %v", got, err)
	}

	// A refusal is an answer: it is not asked again.
	before := calls()
	err = st.WriteTx().Put(st.Table.Put(item).If("attribute_not_exists(PK)")).Run(context.Background())
	if !store.CondFailedAt(err, 0) {
		t.Fatalf("second put: %v, want its condition to fail", err)
	}
	if n := calls() - before; n != 1 {
		t.Errorf("a refused transaction was sent %d times", n)
	}
}
