package media

import (
	"context"
	"encoding/json"
	"errors"

	"github.com/campuscms/panel/shared/auth"
	"github.com/campuscms/panel/shared/collections"
	"github.com/campuscms/panel/shared/mediaref"
	"github.com/campuscms/panel/shared/store"
)

// trashedVersion is the version a media record's trash entry has: media records keep no history
// of their own, so their one kept state is their last.
const trashedVersion = 1

// trashed reads the record a trash entry keeps (404 when it is not in the trash).
func (s *Service) trashed(ctx context.Context, scope store.Scope, id string) (Item, error) {
	state, err := collections.TrashedState(ctx, s.records.Store(), scope, Kind, id, trashedVersion, s.now())
	if err != nil {
		return Item{}, err
	}
	raw, err := json.Marshal(state)
	if err != nil {
		return Item{}, err
	}
	var it Item
	return it, json.Unmarshal(raw, &it)
}

// RestoreDeleted brings a media file back from the trash: its files first (so the record never
// points to nothing), then the record with its counters. A file already back is no error.
func (s *Service) RestoreDeleted(ctx context.Context, caller *auth.Caller, id string) (Item, error) {
	it, err := s.trashed(ctx, caller.Scope, id)
	if err != nil {
		return Item{}, err
	}
	q, p, err := quotaOf(caller.Tenant.PlanID)
	if err != nil {
		return Item{}, err
	}
	if err := s.moveFiles(ctx, it, mediaref.TrashKey, mediaref.ObjectKey, caller.Scope); err != nil {
		return Item{}, err
	}
	err = s.records.Restore(ctx, caller, it, q)
	var over quotaExceeded
	if errors.As(err, &over) {
		// Past the plan's storage: the files go back to the trash with their entry.
		if err := s.moveFiles(ctx, it, mediaref.ObjectKey, mediaref.TrashKey, caller.Scope); err != nil {
			return Item{}, err
		}
		return Item{}, quotaRefusal(over, p)
	}
	return it, err
}

// PurgeDeleted deletes a media file in the trash for good: its entry (with the audit entry), then
// its files (original and variants) wherever a failed move left them.
func (s *Service) PurgeDeleted(ctx context.Context, caller *auth.Caller, id string) error {
	it, err := s.trashed(ctx, caller.Scope, id)
	if err != nil {
		return err
	}
	if err := collections.Purge(ctx, s.records.Store(), caller, Kind, id, trashedVersion, s.now()); err != nil {
		return err
	}
	for _, ref := range it.files() {
		for _, key := range []string{mediaref.TrashKey(caller.Scope, ref), mediaref.ObjectKey(caller.Scope, ref)} {
			if err := s.objects.Delete(ctx, key); err != nil {
				return err
			}
		}
	}
	return nil
}
