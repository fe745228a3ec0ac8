package public

import (
	"context"
	"encoding/json"
	"strconv"
	"strings"

	"github.com/campuscms/panel/shared/mediaref"
	"github.com/campuscms/panel/shared/store"
)

// maxImagesPerRead bounds the media records one read looks up (one BatchGetItem round trip of
// at most 100 keys): a page or list holding more shows the rest from their originals.
const maxImagesPerRead = 100

// Image is what a page needs of an image's media record: its resized copies (shared/media
// Variant), smallest first.
type Image struct {
	Variants []ImageVariant `dynamo:"variants"`
	// AltText and Decorative are the media record's text alternative and decorative switch.
	AltText    string `dynamo:"altText"`
	Decorative bool   `dynamo:"decorative"`
}

// ImageVariant is one resized copy; Ref is relative to the tenant's media prefix.
type ImageVariant struct {
	Width  int    `dynamo:"width" json:"width"`
	Height int    `dynamo:"height" json:"height"`
	Ref    string `dynamo:"fileUrl" json:"-"`
	// URL is the copy's full address (the public API's form), filled by Site.Variants.
	URL string `dynamo:"-" json:"url"`
}

// LoadImages looks up, in one round trip, the media records of every media reference found in
// data (records, pages, forms: anything that marshals to JSON), so that Srcset, Display and
// Variants can answer for them. References already looked up are not read again.
func (r *Reader) LoadImages(ctx context.Context, site *Site, data ...any) error {
	refs := map[string]bool{}
	for _, d := range data {
		raw, err := json.Marshal(d)
		if err != nil {
			return err
		}
		var v any
		if err := json.Unmarshal(raw, &v); err != nil {
			return err
		}
		collectRefs(v, refs)
	}
	keys := make([]store.Key, 0, len(refs))
	byKey := map[store.Key]string{}
	for ref := range refs {
		if _, seen := site.images[ref]; seen || len(keys) == maxImagesPerRead {
			continue
		}
		k := mediaref.RecordKey(site.Scope, ref)
		keys, byKey[k] = append(keys, k), ref
	}
	if len(keys) == 0 {
		return nil
	}
	items, err := r.st.GetMany(ctx, keys...)
	if err != nil {
		return err
	}
	if site.images == nil {
		site.images = map[string]Image{}
	}
	for k, ref := range byKey {
		var img Image
		if _, err := store.Decode(items, k, &img); err != nil {
			return err
		}
		site.images[ref] = img
	}
	return nil
}

// collectRefs adds every string of v that is a media reference to refs.
func collectRefs(v any, refs map[string]bool) {
	switch v := v.(type) {
	case string:
		if mediaref.IsRef(v) {
			refs[v] = true
		}
	case map[string]any:
		for _, e := range v {
			collectRefs(e, refs)
		}
	case []any:
		for _, e := range v {
			collectRefs(e, refs)
		}
	}
}

// Variants are the resized copies of the image at ref with their full URLs, nil when it has
// none (yet) or was not looked up.
func (s *Site) Variants(ref string) []ImageVariant {
	img := s.images[ref]
	if len(img.Variants) == 0 {
		return nil
	}
	out := make([]ImageVariant, len(img.Variants))
	for i, v := range img.Variants {
		v.URL = s.mediaURL(v.Ref)
		out[i] = v
	}
	return out
}

// Alt is the text alternative of the image at ref where a record shows it: empty for an image
// its media record marks decorative (alt=""), else the record's own text (own: a photo's
// caption), else the media record's alt text. An image with neither is also written alt="" (the
// accessibility check reports it to staff: img-alt).
func (s *Site) Alt(ref, own string) string {
	img := s.images[ref]
	switch {
	case img.Decorative:
		return ""
	case strings.TrimSpace(own) != "":
		return own
	}
	return img.AltText
}

// Srcset is the srcset attribute of the image at ref: its copies with their widths; "" when it
// has none, so the browser takes src.
func (s *Site) Srcset(ref string) string {
	var b strings.Builder
	for i, v := range s.images[ref].Variants {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(s.Media(v.Ref) + " " + strconv.Itoa(v.Width) + "w")
	}
	return b.String()
}

// displayWidth is the copy a browser without srcset (and Open Graph) gets: the widest up to it.
const displayWidth = 1280

// Display is the path a page shows for the image at ref: a resized copy (the widest up to
// displayWidth) once there are copies, so the original (up to 5 MB) is served only where asked
// for; the original until then. Originals are stored without their metadata (GPS position,
// camera, XMP, comments: media confirmation and `cmsctl media strip-metadata`), so linking one
// (putImage) discloses no more than its pixels.
func (s *Site) Display(ref string) string {
	vs := s.images[ref].Variants
	if len(vs) == 0 {
		return s.Media(ref)
	}
	pick := vs[0]
	for _, v := range vs {
		if v.Width <= displayWidth {
			pick = v
		}
	}
	return s.Media(pick.Ref)
}

// ShareImage is the copy of the image at ref that share previews show (Open Graph and Twitter
// cards, which want one at least 1200 pixels wide): its widest copy (1920 pixels for a large
// photo; a smaller image's copy at its own width, which is its original's pixels without its
// metadata), with its size; the original until there are copies (size 0 × 0: not known).
func (s *Site) ShareImage(ref string) (path string, width, height int) {
	vs := s.images[ref].Variants
	if len(vs) == 0 {
		return s.Media(ref), 0, 0
	}
	pick := vs[0]
	for _, v := range vs {
		if v.Width > pick.Width {
			pick = v
		}
	}
	return s.Media(pick.Ref), pick.Width, pick.Height
}

// putImage sets an image field of a public record: its URL under name and, once it has copies,
// the copies (width, height, url) under name+"Variants", so a client can build its own srcset.
func (s *Site) putImage(out Record, name, ref string) {
	out[name] = nilIfEmpty(s.mediaURL(ref))
	if vs := s.Variants(ref); vs != nil {
		out[name+"Variants"] = vs
	}
}
