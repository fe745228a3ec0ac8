package collections

import (
	"net/http"

	"github.com/guregu/dynamo/v2"

	"github.com/campuscms/panel/shared/api"
	"github.com/campuscms/panel/shared/auth"
	"github.com/campuscms/panel/shared/listing"
)

// list serves GET /{collection} through the shared listing: the default order, name order,
// name search and paging read about one page of index entries whatever the collection's size.
func (s *Service) list(w http.ResponseWriter, r *http.Request, c *Collection) error {
	defaultSort := c.DefaultSort
	if defaultSort == "" {
		defaultSort = "updatedAt"
	}
	lq, err := api.ParseListQuery(r, defaultSort, func(name string) bool {
		f, ok := c.Field(name)
		return (ok && f.List) || name == "createdAt" || name == "updatedAt"
	})
	if err != nil {
		return err
	}
	scope := auth.CallerFrom(r.Context()).Scope
	req := listing.Request{Scope: scope, Kind: c.Key, NameAttr: c.NameField, Sort: lq.Sort, Desc: lq.Desc,
		Search: lq.Search, Words: true, Page: lq.Page, Limit: lq.Limit, Cursor: lq.Cursor}
	if f := listFacet(c, r); f != "" {
		req.Facet, req.FacetFilter = f, func(rec map[string]any) bool { return facetOf(c, rec) == f }
	}
	req.CountFacet = c.Facet.Name
	res, err := listing.Lister{St: s.st}.List(r.Context(), req)
	if err != nil {
		return err
	}
	out, err := listing.NewPage(req, res, func(it dynamo.Item) (Record, error) {
		var rec Record
		err := dynamo.UnmarshalItem(it, &rec)
		return listView(c, rec), err
	})
	if err != nil {
		return err
	}
	return api.JSON(w, http.StatusOK, out)
}
