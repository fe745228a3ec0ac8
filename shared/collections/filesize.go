package collections

import (
	"context"

	"github.com/campuscms/panel/shared/mediaref"
	"github.com/campuscms/panel/shared/store"
)

// mediaFile is what a write reads of a media record: the file it holds and its size.
type mediaFile struct {
	FileURL  string `dynamo:"fileUrl"`
	FileSize int64  `dynamo:"fileSize"`
}

// deriveFileSizes sets each sizeOf field of a create, or of a patch that sets the file, to the
// size of the media library file the file field now refers to, read from the file's media
// record (its id is the reference's ULID) in one batch. A record without a file, or whose file
// is not in the library (deleted since), has no size. Whatever size the client sent was left
// out already (derived fields are never taken from a write).
func (s *Service) deriveFileSizes(ctx context.Context, wr *Write) error {
	var sized []Field
	var keys []store.Key
	for _, f := range wr.C.Fields {
		if f.SizeOf == "" {
			continue
		}
		if _, set := wr.Values[f.SizeOf]; wr.Old != nil && !set {
			continue // a patch leaving the file alone keeps its size
		}
		sized = append(sized, f)
		if ref := toString(wr.Rec[f.SizeOf]); ref != "" {
			keys = append(keys, mediaref.RecordKey(wr.Caller.Scope, ref))
		}
	}
	files := map[store.Key]mediaFile{}
	if len(keys) > 0 {
		items, err := s.st.GetMany(ctx, keys...)
		if err != nil {
			return err
		}
		for _, k := range keys {
			var m mediaFile
			if ok, err := store.Decode(items, k, &m); err != nil {
				return err
			} else if ok {
				files[k] = m
			}
		}
	}
	for _, f := range sized {
		ref := toString(wr.Rec[f.SizeOf])
		m, ok := files[mediaref.RecordKey(wr.Caller.Scope, ref)]
		switch {
		case ref != "" && ok && m.FileURL == ref:
			wr.Rec[f.Name] = float64(m.FileSize)
		case wr.Old != nil:
			wr.Rec[f.Name] = nil // the patch removes the stored size
		default:
			delete(wr.Rec, f.Name)
		}
	}
	return nil
}
