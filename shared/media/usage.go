package media

import (
	"context"
	"fmt"
	"net/http"
	"sort"
	"strings"

	"github.com/guregu/dynamo/v2"

	"github.com/campuscms/panel/shared/api"
	"github.com/campuscms/panel/shared/collections"
	"github.com/campuscms/panel/shared/store"
)

// Use is one place a media file is shown: a record of a collection (a page's sections count as
// the page's), or a settings singleton.
type Use struct {
	Kind  string `json:"kind"`
	ID    string `json:"id,omitempty"`
	Title string `json:"title"`
}

// maxUses bounds the places a refused delete names.
const maxUses = 20

// usedBy finds where the tenant's records show the media file id: the image, file and rich-text
// fields of every declared collection (one Query of each collection that has such a field, with
// a filter on the file's id, which every form of its reference contains: "{id}/{name}", its
// served path, its sized copies), the settings singletons (one BatchGetItem) and page sections
// (one Query of the tenant's section index). It costs reads of those partitions, paid only by a
// delete that was not forced; nothing is kept on writes.
func (s *Service) usedBy(ctx context.Context, scope store.Scope, id string) ([]Use, error) {
	reg, err := collections.Load()
	if err != nil {
		return nil, err
	}
	st := s.records.Store()
	var uses []Use
	var singletons []store.Key
	byKey := map[store.Key]*collections.Collection{}
	keys := make([]string, 0, len(reg))
	for k := range reg {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, key := range keys {
		c := reg[key]
		var fields []string
		for _, f := range c.Fields {
			if f.Type == collections.TypeImage || f.Type == collections.TypeFile || f.Type == collections.TypeRichText {
				fields = append(fields, f.Name)
			}
		}
		if len(fields) == 0 {
			continue
		}
		if c.Singleton != "" {
			k := store.Key{PK: scope.Root(), SK: c.Singleton}
			singletons = append(singletons, k)
			byKey[k] = c
			continue
		}
		conds := make([]string, len(fields))
		args := make([]any, 0, 2*len(fields))
		for i, f := range fields {
			conds[i] = "contains($, ?)"
			args = append(args, f, id)
		}
		proj := []string{"id"}
		if c.NameField != "" {
			proj = append(proj, c.NameField)
		}
		var recs []map[string]any
		err := st.Table.Get("PK", scope.Collection(c.Key)).Filter(strings.Join(conds, " OR "), args...).
			Project(proj...).Limit(maxUses).All(ctx, &recs)
		if err != nil {
			return nil, store.Wrap("media uses in "+c.Key, err)
		}
		for _, rec := range recs {
			title := c.Title
			if c.NameField != "" {
				if t, _ := rec[c.NameField].(string); t != "" {
					title = t
				}
			}
			idv, _ := rec["id"].(string)
			uses = append(uses, Use{Kind: c.Key, ID: idv, Title: title})
		}
	}
	if len(singletons) > 0 {
		items, err := st.GetMany(ctx, singletons...)
		if err != nil {
			return nil, store.Wrap("media uses in settings", err)
		}
		for _, k := range singletons {
			if it, ok := items[k]; ok && itemMentions(it, id) {
				uses = append(uses, Use{Kind: byKey[k].Key, Title: byKey[k].TitlePlural})
			}
		}
	}
	pages, err := s.pagesShowing(ctx, st, scope, id, reg)
	if err != nil {
		return nil, err
	}
	uses = append(uses, pages...)
	return dedupe(uses), nil
}

// pagesShowing finds the pages whose sections show the file (a section's items are JSON text).
func (s *Service) pagesShowing(ctx context.Context, st *store.Store, scope store.Scope, id string, reg collections.Registry) ([]Use, error) {
	var secs []struct {
		PageID string `dynamo:"pageId"`
	}
	err := st.Table.Get("GSI1PK", scope.Partition("PAGESECTION")).Index("GSI1").
		Filter("contains($, ?) OR contains($, ?)", "config", id, "image", id).Project("pageId").Limit(maxUses).All(ctx, &secs)
	if err != nil {
		return nil, store.Wrap("media uses in page sections", err)
	}
	c := reg["pages"]
	if len(secs) == 0 || c == nil {
		return nil, nil
	}
	seen := map[string]bool{}
	var keys []store.Key
	for _, sec := range secs {
		if sec.PageID != "" && !seen[sec.PageID] {
			seen[sec.PageID] = true
			keys = append(keys, store.Key{PK: scope.Collection(c.Key), SK: sec.PageID})
		}
	}
	items, err := st.GetMany(ctx, keys...)
	if err != nil {
		return nil, store.Wrap("media uses in pages", err)
	}
	out := make([]Use, 0, len(keys))
	for _, k := range keys {
		title := c.Title
		if it, ok := items[k]; ok {
			var rec map[string]any
			if dynamo.UnmarshalItem(it, &rec) == nil {
				if t, _ := rec[c.NameField].(string); t != "" {
					title = t
				}
			}
		}
		out = append(out, Use{Kind: c.Key, ID: k.SK, Title: title})
	}
	return out, nil
}

// itemMentions says whether any string attribute of an item contains s.
func itemMentions(it dynamo.Item, s string) bool {
	var rec map[string]any
	if dynamo.UnmarshalItem(it, &rec) != nil {
		return false
	}
	for _, v := range rec {
		if str, ok := v.(string); ok && strings.Contains(str, s) {
			return true
		}
	}
	return false
}

func dedupe(uses []Use) []Use {
	seen := map[Use]bool{}
	out := []Use{}
	for _, u := range uses {
		if !seen[u] {
			seen[u] = true
			out = append(out, u)
		}
	}
	return out
}

// inUse is the answer to a delete of a file still shown somewhere: 409 naming where, with how
// to delete it anyway (?force=1).
type inUse struct {
	Message string `json:"message"`
	UsedBy  []Use  `json:"usedBy"`
	// Force is the query that deletes the file anyway.
	Force string `json:"force"`
}

// MsgInUse starts the message of a refused delete.
const MsgInUse = "This file is still used by"

func writeInUse(w http.ResponseWriter, uses []Use) error {
	names := make([]string, 0, min(len(uses), 5))
	for i, u := range uses {
		if i == 5 {
			names = append(names, fmt.Sprintf("and %d more", len(uses)-5))
			break
		}
		names = append(names, fmt.Sprintf("%s (%s)", u.Title, u.Kind))
	}
	return api.JSON(w, http.StatusConflict, inUse{
		Message: fmt.Sprintf("%s %s. Delete it anyway?", MsgInUse, strings.Join(names, ", ")),
		UsedBy:  uses, Force: "force=1"})
}
