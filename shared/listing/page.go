package listing

import "github.com/guregu/dynamo/v2"

// Page is a list answer as every list route sends it (collections, media): the page, its total,
// and the cursors of the adjacent pages.
type Page[T any] struct {
	Result           []T    `json:"result"`
	TotalCount       int64  `json:"totalCount"`
	TotalCountCapped bool   `json:"totalCountCapped,omitempty"`
	NextCursor       string `json:"nextCursor,omitempty"`
	PrevCursor       string `json:"prevCursor,omitempty"`
	// Sortable, when set, are the only columns this list can be sorted by (it is past
	// SortAllMax records); the SPA disables the other headers.
	Sortable []string `json:"sortable,omitempty"`
	// FacetCount is the size of the collection's declared facet (unread notifications).
	FacetCount *int64 `json:"facetCount,omitempty"`
}

// NewPage turns a list result into its answer, each item shown by view.
func NewPage[T any](req Request, res Result, view func(dynamo.Item) (T, error)) (Page[T], error) {
	out := Page[T]{Result: make([]T, 0, len(res.Items)), TotalCount: res.Total, TotalCountCapped: res.Capped,
		NextCursor: res.Next, PrevCursor: res.Prev, FacetCount: res.FacetTotal}
	for _, it := range res.Items {
		v, err := view(it)
		if err != nil {
			return out, err
		}
		out.Result = append(out.Result, v)
	}
	if req.Facet == "" && req.Search == "" {
		out.Sortable = Sortable(req.NameAttr, res.Total)
	}
	return out, nil
}
