package collections

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/campuscms/panel/shared/auth"
	"github.com/campuscms/panel/shared/ids"
)

// Create writes a new record of c as caller through the path POST /{collection} takes, for
// callers that are not a request (the demo seed): body (field name → value, as a request's JSON
// would hold them) is checked and converted like a request's, the collection's hooks run (a
// page's slug marker and sections, a form's field ids), and the record with its list index
// attributes, reference counts and counters is written in one transaction. id names the record
// (a ULID; empty means a new one), so a seed of fixed records can run again: a record already
// there is api.ErrConflict and nothing is written. It answers the record as GET one shows it,
// without what a Viewer adds.
func (s *Service) Create(ctx context.Context, caller *auth.Caller, c *Collection, id string, body map[string]any) (Record, error) {
	if id != "" && !ids.Valid(id) {
		return nil, fmt.Errorf("collections: create %s: id %q is not a ULID", c.Key, id)
	}
	in, err := bodyInput(c, body)
	if err != nil {
		return nil, err
	}
	values, err := s.conv.values(caller.Scope, c, in, true)
	if err != nil {
		return nil, err
	}
	wr, err := s.createRecord(ctx, caller, c, id, values, nil)
	if err != nil {
		return nil, err
	}
	return view(c, wr.Rec), nil
}

// Update patches record id of c as caller outside a request (the /page-sections routes, which
// are adapters over their page's update; the schedule job): body is a PATCH body, version
// included; the same checks, hooks and commit as PATCH /{collection}/{id}, so the record's list
// index, counters and kept version follow. It returns the record as stored.
func (s *Service) Update(ctx context.Context, caller *auth.Caller, c *Collection, id string, body map[string]any) (Record, error) {
	wr, err := s.updateWrite(ctx, caller, c, id, body)
	if err != nil {
		return nil, err
	}
	return wr.Rec, nil
}

// UpdateViewed is Update answering the record as PATCH does, with what its hooks show beside it
// (a page's sections as saved, known from the write rather than read back).
func (s *Service) UpdateViewed(ctx context.Context, caller *auth.Caller, c *Collection, id string, body map[string]any) (Record, error) {
	wr, err := s.updateWrite(ctx, caller, c, id, body)
	if err != nil {
		return nil, err
	}
	return s.writtenView(ctx, wr)
}

func (s *Service) updateWrite(ctx context.Context, caller *auth.Caller, c *Collection, id string, body map[string]any) (*Write, error) {
	in, err := bodyInput(c, body)
	if err != nil {
		return nil, err
	}
	wr, version, err := s.prepareUpdate(ctx, caller, c, id, in, s.Load)
	if err != nil {
		return nil, err
	}
	if err := s.update(ctx, wr, version); err != nil {
		return nil, err
	}
	return wr, nil
}

// bodyInput is a body given as Go values (field name → value, as a request's JSON would hold
// them) read like a request's.
func bodyInput(c *Collection, body map[string]any) (input, error) {
	raw := make(map[string]json.RawMessage, len(body))
	for name, v := range body {
		b, err := json.Marshal(v)
		if err != nil {
			return input{}, fmt.Errorf("collections: %s: field %s: %w", c.Key, name, err)
		}
		raw[name] = b
	}
	return inputOf(raw, c)
}
