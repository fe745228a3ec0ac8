package collections

// A record's review thread: comments kept with the record, listed and added by the review's routes.

import (
	"context"
	"net/http"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/guregu/dynamo/v2"

	"github.com/campuscms/panel/shared/api"
	"github.com/campuscms/panel/shared/auth"
	"github.com/campuscms/panel/shared/ids"
	"github.com/campuscms/panel/shared/listing"
	"github.com/campuscms/panel/shared/store"
)

// Comment is one comment of a record's review thread.
type Comment struct {
	ID      string `dynamo:"id" json:"id"`
	Comment string `dynamo:"comment" json:"comment"`
	By      string `dynamo:"by" json:"by"`
	ByName  string `dynamo:"byName" json:"byName"`
	At      string `dynamo:"at" json:"at"`
}

type commentItem struct {
	PK string `dynamo:"PK"`
	SK string `dynamo:"SK"`
	Comment
}

func commentPartition(scope store.Scope, kind, id string) string {
	return scope.Partition("COMMENTS", kind, id)
}

func (s *Service) commentItem(caller *auth.Caller, c *Collection, id, text string, at time.Time) *dynamo.Put {
	_, put := s.newComment(caller, c, id, text, at)
	return put
}

func (s *Service) newComment(caller *auth.Caller, c *Collection, id, text string, at time.Time) (Comment, *dynamo.Put) {
	cid := ids.New()
	it := commentItem{PK: commentPartition(caller.Scope, c.Key, id), SK: listing.TimeKey(at) + "#" + cid,
		Comment: Comment{ID: cid, Comment: text, At: nowString(at)}}
	if caller.User != nil {
		it.By, it.ByName = caller.User.ID, caller.User.Username
	}
	return it.Comment, s.st.Table.Put(it)
}

// recordOrDraft refuses a comment route of a record that has neither a live record nor a draft.
func (s *Service) recordOrDraft(ctx context.Context, scope store.Scope, c *Collection, id string) error {
	d, found, err := s.loadDraft(ctx, scope, c, id)
	if err != nil {
		return err
	}
	if found && !d.Trashed {
		return nil
	}
	live, err := s.liveOf(ctx, scope, c, id)
	if err != nil {
		return err
	}
	if live == nil {
		return notFound(c)
	}
	return nil
}

func (s *Service) listCommentsRoute(w http.ResponseWriter, r *http.Request, c *Collection) error {
	caller := auth.CallerFrom(r.Context())
	id := r.PathValue("id")
	if err := s.recordOrDraft(r.Context(), caller.Scope, c, id); err != nil {
		return err
	}
	var items []commentItem
	err := s.st.Table.Get("PK", commentPartition(caller.Scope, c.Key, id)).Order(dynamo.Descending).Limit(maxComments).All(r.Context(), &items)
	if err != nil {
		return store.Wrap("comments", err)
	}
	out := make([]Comment, 0, len(items))
	for i := len(items) - 1; i >= 0; i-- {
		out = append(out, items[i].Comment)
	}
	total := int64(len(out))
	return api.JSON(w, http.StatusOK, api.Envelope{Result: out, TotalCount: &total})
}

func (s *Service) addCommentRoute(w http.ResponseWriter, r *http.Request, c *Collection) error {
	var b struct {
		Comment string `json:"comment"`
	}
	if err := api.Decode(r, &b); err != nil {
		return err
	}
	caller := auth.CallerFrom(r.Context())
	if !caller.User.Can(c.Permission("EDIT")) && !caller.User.Can(c.Permission(ActionPublish)) {
		return &api.Error{Status: http.StatusForbidden, Message: "You do not have permission to do this."}
	}
	id := r.PathValue("id")
	if err := s.recordOrDraft(r.Context(), caller.Scope, c, id); err != nil {
		return err
	}
	text := strings.TrimSpace(b.Comment)
	switch {
	case text == "":
		return errNeedsComment
	case utf8.RuneCountInString(text) > MaxCommentLength:
		return errCommentLength
	}
	now := s.now()
	cm, put := s.newComment(caller, c, id, text, now)
	t := s.newStepTx(put, api.ErrConflict)
	t.add(s.auditItem(caller, now, ActionComment, c, id, nil))
	if err := t.run(r.Context(), "comment"); err != nil {
		return err
	}
	return api.JSON(w, http.StatusCreated, api.Envelope{Result: cm, Message: "Comment added!"})
}
