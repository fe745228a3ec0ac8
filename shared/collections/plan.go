package collections

import (
	"context"

	"github.com/campuscms/panel/shared/api"
	"github.com/campuscms/panel/shared/plans"
)

// countCap is a plan's limit on a collection's records for one create: the collection's counter
// moves only if it is below max (the condition sits on the counter's own update, so two creates
// racing for the last place cannot both pass), else the write is refused with refusal.
type countCap struct {
	max     int64
	refusal *api.Error
}

// enforcePlan is the engine's observer of the tenant's plan (shared/plans): a create (a restore
// from the trash too) of a collection the plan limits is refused when the plan excludes it, or
// capped at the plan's number. Updates and deletes are never refused, so a downgrade keeps every
// record and only refuses new ones. A tenant with no planId is on the default plan.
func (s *Service) enforcePlan(_ context.Context, wr *Write) error {
	if wr.Old != nil || wr.Action == ActionDelete || wr.C.Singleton != "" {
		return nil
	}
	p, err := plans.Of(wr.Caller.Tenant.PlanID)
	if err != nil {
		return err
	}
	max, limited, refusal := p.CreateLimit(wr.C.Key)
	switch {
	case !limited:
		return nil
	case max <= 0:
		return refusal
	}
	wr.countCap = &countCap{max: max, refusal: refusal}
	return nil
}
