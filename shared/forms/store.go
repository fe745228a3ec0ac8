package forms

import (
	"context"
	"fmt"
	"net/http"
	"sort"

	"github.com/guregu/dynamo/v2"

	"github.com/campuscms/panel/shared/api"
	"github.com/campuscms/panel/shared/auth"
	"github.com/campuscms/panel/shared/collections"
	"github.com/campuscms/panel/shared/ids"
	"github.com/campuscms/panel/shared/store"
	"github.com/campuscms/panel/shared/words"
)

// Table layout of submissions (DESIGN §3):
//
//	T#{t}#FORM#{formId}#SUB  {ulid}   one submission; newest first is a descending query
//	T#{t}#FORM#{formId}      COUNT    the form's counters: count (all) and unchecked
//	T#{t}                    COUNT#custom-form-submissions-unchecked   the dashboard's counter
//
// Both counters change in the same transaction as each submit, check and delete, so a page of
// submissions and its totalCount never need a read of the whole partition.
const (
	formsCollection = "custom-forms"
	counterSK       = "COUNT"
)

var (
	errFormNotFound = &api.Error{Status: http.StatusNotFound, Message: "Form not found!"}
	errSubNotFound  = &api.Error{Status: http.StatusNotFound, Message: "Submission not found!"}
)

// submissionsPK is the partition of one form's submissions.
func submissionsPK(scope store.Scope, formID string) string {
	return scope.Partition("FORM", formID, "SUB")
}

// counterKey is the key of one form's counter item.
func counterKey(scope store.Scope, formID string) store.Key {
	return store.Key{PK: scope.Partition("FORM", formID), SK: counterSK}
}

// formKey is the key of a form record (the custom-forms collection).
func formKey(scope store.Scope, formID string) store.Key {
	return store.Key{PK: scope.Collection(formsCollection), SK: formID}
}

// counter is a form's counter item.
type counter struct {
	Count     int64 `dynamo:"count"`
	Unchecked int64 `dynamo:"unchecked"`
}

func readCounter(ctx context.Context, st *store.Store, scope store.Scope, formID string) (counter, error) {
	var c counter
	err := st.Get(ctx, counterKey(scope, formID), &c)
	if store.IsNotFound(err) {
		return counter{}, nil
	}
	return c, err
}

// counterOfForm reads a form's counter with the form itself in one round trip: an unknown form
// (or another tenant's) is errFormNotFound.
func counterOfForm(ctx context.Context, st *store.Store, scope store.Scope, formID string) (counter, error) {
	if !ids.Valid(formID) {
		return counter{}, errFormNotFound
	}
	fk, ck := formKey(scope, formID), counterKey(scope, formID)
	found, err := st.GetMany(ctx, fk, ck)
	if err != nil {
		return counter{}, err
	}
	if _, ok := found[fk]; !ok {
		return counter{}, errFormNotFound
	}
	var c counter
	_, err = store.Decode(found, ck, &c)
	return c, err
}

// item is a stored submission. Values maps field labels to a string, or a list of option names
// for a checkbox field.
type item struct {
	PK        string         `dynamo:"PK"`
	SK        string         `dynamo:"SK"`
	ID        string         `dynamo:"id"`
	FormID    string         `dynamo:"formId"`
	CreatedAt string         `dynamo:"createdAt"`
	Checked   bool           `dynamo:"checked"`
	Values    map[string]any `dynamo:"values"`
}

// Submission is a submission as the API shows it: {id, formId, createdAt, checked, ...values}.
type Submission map[string]any

func (it item) view() Submission {
	out := Submission{}
	for k, v := range it.Values {
		out[k] = v
	}
	out["id"], out["formId"], out["createdAt"], out["checked"] = it.ID, it.FormID, it.CreatedAt, it.Checked
	return out
}

// loadSubmission reads one submission of a form.
func loadSubmission(ctx context.Context, st *store.Store, scope store.Scope, formID, id string) (item, error) {
	var it item
	if !ids.Valid(id) || !ids.Valid(formID) {
		return it, errSubNotFound
	}
	err := st.Get(ctx, store.Key{PK: submissionsPK(scope, formID), SK: id}, &it)
	if store.IsNotFound(err) {
		return it, errSubNotFound
	}
	return it, err
}

// page reads one page of a form's submissions, newest first (oldest first with asc): limit items
// after the cursor (the id of the last item of the previous page), and the cursor of the next
// page ("" at the end).
func page(ctx context.Context, st *store.Store, scope store.Scope, formID, cursor string, limit int, asc bool) ([]item, string, error) {
	pk := submissionsPK(scope, formID)
	q := st.Table.Get("PK", pk).Order(order(asc)).Limit(limit)
	if cursor != "" {
		q = q.StartFrom(pagingKey(pk, cursor))
	}
	var items []item
	last, err := q.AllWithLastEvaluatedKey(ctx, &items)
	if err != nil {
		return nil, "", store.Wrap("list submissions", err)
	}
	next := ""
	if last != nil && len(items) == limit {
		next = items[len(items)-1].ID
	}
	return items, next, nil
}

// skip returns the cursor after the first n submissions of a form (a keys-only read), for a
// client that asks for page p rather than following cursors; ok is false when there are no more
// than n.
func skip(ctx context.Context, st *store.Store, scope store.Scope, formID string, n int, asc bool) (cursor string, ok bool, err error) {
	if n <= 0 {
		return "", true, nil
	}
	var keys []store.Key
	err = st.Table.Get("PK", submissionsPK(scope, formID)).Order(order(asc)).Project("PK", "SK").Limit(n).All(ctx, &keys)
	if err != nil {
		return "", false, store.Wrap("skip submissions", err)
	}
	if len(keys) < n {
		return "", false, nil
	}
	return keys[len(keys)-1].SK, true, nil
}

func order(asc bool) dynamo.Order {
	if asc {
		return dynamo.Ascending
	}
	return dynamo.Descending
}

// maxSubmissionWords is how many words of a submission's values it is found by.
const maxSubmissionWords = 25

// words are what a submission is found by: the words of its values, field by field in label
// order (a checkbox field's options too).
func (it item) words() []string {
	labels := make([]string, 0, len(it.Values))
	for label := range it.Values {
		labels = append(labels, label)
	}
	sort.Strings(labels)
	var texts []string
	for _, label := range labels {
		switch v := it.Values[label].(type) {
		case string:
			texts = append(texts, v)
		case []any:
			for _, o := range v {
				texts = append(texts, fmt.Sprint(o))
			}
		case []string:
			texts = append(texts, v...)
		}
	}
	return words.OfAtMost(maxSubmissionWords, texts...)
}

// submissionKind is a form's submissions as the engine records their writes
// (collections.SideEffects): in their form's partition, found by the words of their values,
// audited as {formId}/{id}, and neither versioned (personal data, kept no longer than the
// submission itself) nor listed or counted by the engine (the form's counter counts them).
var submissionKind = collections.Kind{
	Collection: &collections.Collection{Key: Prefix, Title: "Form Submission", TitlePlural: "Form Submissions"},
	WordsOf:    func(rec collections.Record) []string { return itemOf(rec).words() },
	PartitionOf: func(scope store.Scope, rec collections.Record) string {
		return submissionsPK(scope, itemOf(rec).FormID)
	},
	AuditID:     func(rec collections.Record) string { it := itemOf(rec); return it.FormID + "/" + it.ID },
	Unversioned: true,
	Unlisted:    true,
}

// record is the submission as the engine reads a stored record.
func (it item) record() collections.Record {
	return collections.Record{"id": it.ID, "formId": it.FormID, "createdAt": it.CreatedAt, "checked": it.Checked, "values": it.Values}
}

// itemOf is the submission a record holds (record's inverse).
func itemOf(rec collections.Record) item {
	it := item{}
	it.ID, _ = rec["id"].(string)
	it.FormID, _ = rec["formId"].(string)
	it.CreatedAt, _ = rec["createdAt"].(string)
	it.Checked, _ = rec["checked"].(bool)
	it.Values, _ = rec["values"].(map[string]any)
	return it
}

// effects are what records a write of a submission by caller (collections.SideEffects): its audit
// entry and its words. before is the zero item on a submit, after on a delete; changed names
// what an update changes.
func effects(ctx context.Context, st *store.Store, caller *auth.Caller, action string, before, after item, changed ...string) (collections.Effects, error) {
	ch := collections.Change{Caller: caller, Kind: submissionKind, Action: action}
	if before.ID != "" {
		ch.Before = before.record()
	}
	if after.ID != "" {
		ch.After = after.record()
	}
	if action == collections.ActionUpdate {
		ch.Changed = changed
	}
	return collections.SideEffects(ctx, st, ch)
}

func pagingKey(pk, sk string) dynamo.PagingKey {
	item, _ := dynamo.MarshalItem(store.Key{PK: pk, SK: sk})
	return dynamo.PagingKey(item)
}
