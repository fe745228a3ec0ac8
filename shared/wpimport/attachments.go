package wpimport

import (
	"context"
	"errors"
	"net/url"
	"path"
	"strings"
	"sync"

	"github.com/guregu/dynamo/v2"

	"github.com/campuscms/panel/shared/api"
	"github.com/campuscms/panel/shared/media"
	"github.com/campuscms/panel/shared/mediaref"
	"github.com/campuscms/panel/shared/store"
)

// fetchers is how many attachments are fetched at a time.
const fetchers = 4

// media imports the attachments, a few at a time, then learns which are in the library (those
// an earlier run imported too).
func (r *run) media(ctx context.Context) error {
	atts := r.ix.attachments
	for start := 0; start < len(atts); start += fetchers {
		batch := atts[start:min(start+fetchers, len(atts))]
		if r.step+len(batch) <= r.opts.From.Step {
			r.step += len(batch)
			continue
		}
		errs := make([]error, len(batch))
		var wg sync.WaitGroup
		for i, e := range batch {
			wg.Add(1)
			go func() {
				defer wg.Done()
				errs[i] = r.attachment(ctx, e)
			}()
		}
		wg.Wait()
		for i, e := range batch {
			switch err := errs[i]; {
			case err == nil:
			case errors.Is(err, ErrMissing):
				r.rep.Missing.add("%s: %v", e.AttachmentURL, err)
			case refused(err):
				r.rep.Failed.add("File %s: %s", e.AttachmentURL, describe(err))
			default:
				return err
			}
		}
		for range batch {
			if err := r.done(PhaseMedia); err != nil {
				return err
			}
		}
	}
	return r.libraryRefs(ctx)
}

// attachmentName is the name an attachment takes in the library: its title with its file's
// extension, or its file's name.
func attachmentName(e *entry) string {
	u, _ := url.Parse(e.AttachmentURL)
	base := ""
	if u != nil {
		base = path.Base(u.Path)
	}
	if base == "." || base == "/" {
		base = ""
	}
	title := strings.TrimSpace(e.Title)
	ext := path.Ext(base)
	switch {
	case title == "":
		return base
	case strings.HasSuffix(strings.ToLower(title), strings.ToLower(ext)):
		return title
	}
	return title + ext
}

// attachment imports one attachment's file, unless an earlier run did.
func (r *run) attachment(ctx context.Context, e *entry) error {
	if r.im.Files == nil {
		return errorsMissing("files are not fetched in this run")
	}
	id := r.plan.ids[e.ID]
	if r.opts.DryRun {
		if err := r.im.Files.Has(ctx, e.AttachmentURL); err != nil {
			return err
		}
		r.mark(KindMedia, created)
		return nil
	}
	body, mt, err := r.im.Files.Get(ctx, e.AttachmentURL)
	if err != nil {
		return err
	}
	_, err = r.im.Media.Ingest(ctx, r.caller, id, attachmentName(e), mt, body,
		media.Details{Alt: e.Meta["_wp_attachment_image_alt"], Caption: e.Caption})
	switch {
	case errors.Is(err, api.ErrConflict):
		r.mark(KindMedia, unchanged)
		return nil
	case err != nil:
		return err
	}
	r.mark(KindMedia, created)
	return nil
}

// mark counts an outcome from one of the fetchers.
func (r *run) mark(kind string, o outcome) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.count(kind, o)
}

type missingError string

func (m missingError) Error() string { return string(m) }
func (m missingError) Unwrap() error { return ErrMissing }

func errorsMissing(why string) error { return missingError(why) }

// libraryRefs learns which attachments are in the library, and their references: one batch
// read per hundred. A dry run counts those it found as if imported.
func (r *run) libraryRefs(ctx context.Context) error {
	atts := r.ix.attachments
	for start := 0; start < len(atts); start += 100 {
		batch := atts[start:min(start+100, len(atts))]
		keys := make([]store.Key, len(batch))
		for i, e := range batch {
			keys[i] = mediaref.RecordKey(r.scope, r.plan.ids[e.ID])
		}
		found, err := r.im.Svc.Store().GetMany(ctx, keys...)
		if err != nil {
			return err
		}
		for i, e := range batch {
			item, ok := found[keys[i]]
			if !ok {
				if r.opts.DryRun && r.im.Files != nil && !r.rep.missing(e.AttachmentURL) {
					r.imported[e.ID] = r.plan.ids[e.ID] + "/" + mediaref.SafeName(attachmentName(e))
				}
				continue
			}
			var it media.Item
			if err := dynamo.UnmarshalItem(item, &it); err != nil {
				return err
			}
			r.imported[e.ID] = it.FileURL
		}
	}
	return nil
}

// missing reports whether the report lists fileURL as not found.
func (rep *Report) missing(fileURL string) bool {
	for _, l := range rep.Missing.Items {
		if strings.HasPrefix(l, fileURL+": ") {
			return true
		}
	}
	return false
}

// imageURL is where an imported attachment is served.
func (r *run) imageURL(ref string) string {
	return r.im.MediaPrefix + r.scope.Tenant() + "/" + ref
}
