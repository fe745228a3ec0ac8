package media

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/campuscms/panel/shared/api"
	"github.com/campuscms/panel/shared/auth"
	"github.com/campuscms/panel/shared/collections"
	"github.com/campuscms/panel/shared/ids"
	"github.com/campuscms/panel/shared/store"
)

// MsgDetailsSaved answers a saved PATCH /media/{id}.
const MsgDetailsSaved = "Media details saved"

// detailsInput is what an upload's confirmation and PATCH /media/{id} take of an image's
// details: its text alternative, caption and the decorative switch (absent: unchanged).
type detailsInput struct {
	AltText    *string         `json:"altText"`
	Caption    *string         `json:"caption"`
	Decorative json.RawMessage `json:"decorative"`
}

// apply checks the input and sets what it gives on d.
func (in detailsInput) apply(d *Details) error {
	errs := map[string]string{}
	text := func(field, label string, p *string, dst *string) {
		if p == nil {
			return
		}
		s := strings.TrimSpace(*p)
		if utf8.RuneCountInString(s) > maxDetail {
			errs[field] = fmt.Sprintf("%s must be at most %d characters.", label, maxDetail)
			return
		}
		*dst = s
	}
	text("altText", "Alt text", in.AltText, &d.Alt)
	text("caption", "Caption", in.Caption, &d.Caption)
	if len(in.Decorative) > 0 && string(in.Decorative) != "null" {
		b, ok := api.ParseBool(in.Decorative)
		if !ok {
			errs["decorative"] = "Decorative must be true or false."
		}
		d.Decorative = b
	}
	if len(errs) > 0 {
		return api.BadRequest(errs, "altText", "caption", "decorative")
	}
	return nil
}

// patchDetails serves PATCH /media/{id}: an image's alt text, caption and decorative switch, the
// record updated with its audit entry in one transaction (collections.SideEffects; media records
// keep no versions).
func (s *Service) patchDetails(w http.ResponseWriter, r *http.Request) error {
	ctx := r.Context()
	caller := auth.CallerFrom(ctx)
	scope := caller.Scope
	id := r.PathValue("id")
	if !ids.Valid(id) {
		return api.ErrNotFound
	}
	var in detailsInput
	if err := api.Decode(r, &in); err != nil {
		return err
	}
	it, err := s.records.Get(ctx, scope, id)
	if err != nil {
		return err
	}
	d := Details{Alt: it.Alt, Caption: it.Caption, Decorative: it.Decorative}
	if err := in.apply(&d); err != nil {
		return err
	}
	before, err := it.record()
	if err != nil {
		return err
	}
	updated := it
	updated.Alt, updated.Caption, updated.Decorative, updated.UpdatedAt = d.Alt, d.Caption, d.Decorative, s.now().UTC()
	after, err := updated.record()
	if err != nil {
		return err
	}
	var changed []string
	for _, f := range []string{"altText", "caption", "decorative"} {
		if fmt.Sprint(before[f]) != fmt.Sprint(after[f]) {
			changed = append(changed, f)
		}
	}
	if len(changed) == 0 {
		return api.JSON(w, http.StatusOK, api.Envelope{Result: it, Message: MsgDetailsSaved})
	}
	kind := mediaKind
	kind.Unversioned = true
	fx, err := collections.SideEffects(ctx, s.records.Store(), collections.Change{Caller: caller, Kind: kind, Action: collections.ActionUpdate,
		Before: before, After: after, Changed: changed})
	if err != nil {
		return err
	}
	st := s.records.Store()
	upd := st.Table.Update("PK", scope.Collection(kindMedia)).Range("SK", it.ID).
		Set("decorative", updated.Decorative).Set("updatedAt", updated.UpdatedAt.Format(time.RFC3339Nano)).
		If("attribute_exists(PK) AND fileUrl = ?", it.FileURL)
	for name, v := range map[string]string{"altText": updated.Alt, "caption": updated.Caption} {
		if v == "" {
			upd.Remove(name)
		} else {
			upd.Set(name, v)
		}
	}
	fx.Set(upd)
	tx := st.WriteTx().Update(upd)
	fx.AddTo(st, scope, tx)
	err = tx.Run(ctx)
	if store.CondFailedAt(err, 0) {
		return api.ErrNotFound
	}
	if err != nil {
		return store.Wrap("save media details", err)
	}
	return api.JSON(w, http.StatusOK, api.Envelope{Result: updated, Message: MsgDetailsSaved})
}
