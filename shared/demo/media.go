package demo

import (
	"bytes"
	"context"
	"fmt"
	"runtime"
	"sync"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3"

	"github.com/campuscms/panel/shared/media"
	"github.com/campuscms/panel/shared/mediaref"
)

// file is one file of the demo media library.
type file struct {
	// key is the seed's own name for the file ("hero-1"): records name it, and its id derives from it.
	key string
	// name is the file name the Media Library shows.
	name     string
	mimeType string
	render   func() []byte
	// alt is the picture's text alternative, or decorative says it adds nothing to the text: every
	// demo image has one or the other, so the demo's accessibility report starts at zero.
	alt        string
	decorative bool
}

// jpegFile is a generated picture of the given scene and size.
func jpegFile(key, name string, s scene, w, h int) file {
	f := file{key: key, name: name, mimeType: "image/jpeg", render: func() []byte { return jpegOf(s, w, h, key) }}
	f.alt, f.decorative = s.alt()
	return f
}

// alt describes what the scene draws; the abstract one is decoration.
func (s scene) alt() (text string, decorative bool) {
	switch s {
	case sceneCampus:
		return "Drawing of college buildings with lit windows below hills", false
	case sceneLandscape:
		return "Drawing of rolling hills under a low sun", false
	case scenePortrait:
		return "Silhouette standing in for a staff member's photo", false
	}
	return "", true
}

// renderAll draws the files side by side, as many at once as there are cores: the pictures
// take most of a second of CPU between them, and each holds a canvas of up to 27 MB while drawn,
// so drawing all forty at once would only add memory.
func renderAll(files []file) [][]byte {
	out := make([][]byte, len(files))
	slots := make(chan struct{}, runtime.GOMAXPROCS(0))
	var wg sync.WaitGroup
	for i, f := range files {
		wg.Add(1)
		slots <- struct{}{}
		go func() {
			defer func() { <-slots; wg.Done() }()
			out[i] = f.render()
		}()
	}
	wg.Wait()
	return out
}

// uploadMedia puts each file into the media bucket at its served key and writes its Media
// Library record, noting each file's reference ("{ulid}/{name}", what records hold) and size
// by the file's key.
func (sd *seeder) uploadMedia(ctx context.Context, files []file) error {
	bodies := renderAll(files)
	for i, f := range files {
		ref, err := sd.putFile(ctx, f, bodies[i])
		if err != nil {
			return err
		}
		sd.refs[f.key], sd.sizes[f.key] = ref, int64(len(bodies[i]))
	}
	return nil
}

// putFile uploads one file, then records it. The object comes first, so a record never names a
// missing file; putting it again on a retry rewrites the same bytes under the same key.
func (sd *seeder) putFile(ctx context.Context, f file, body []byte) (string, error) {
	id := sd.id("media/" + f.key)
	ref := id + "/" + mediaref.SafeName(f.name)
	_, err := sd.s3.PutObject(ctx, &s3.PutObjectInput{
		Bucket: aws.String(sd.bucket), Key: aws.String(mediaref.ObjectKey(sd.scope, ref)), Body: bytes.NewReader(body),
		ContentLength: aws.Int64(int64(len(body))), ContentType: aws.String(f.mimeType), CacheControl: aws.String(media.CacheControl),
	})
	if err != nil {
		return "", fmt.Errorf("demo: upload %s: %w", f.name, err)
	}
	created, err := sd.recordFile(ctx, media.Item{ID: id, Name: f.name, FileURL: ref, FileSize: int64(len(body)),
		MimeType: f.mimeType, MediaType: media.MediaTypeOf(f.mimeType), Alt: f.alt, Decorative: f.decorative,
		CreatedAt: sd.now, UpdatedAt: sd.now})
	if err != nil {
		return "", err
	}
	// Sized copies are made by whoever runs the seed (the local server, in the background:
	// media.Deriver.DeriveTenant), not here, so seeding stays quick.
	sd.count(mediaref.RecordPartition, created)
	return ref, nil
}

// recordFile writes a Media Library record as the library's confirmation does (media.Add),
// only if the record is not there yet.
func (sd *seeder) recordFile(ctx context.Context, it media.Item) (created bool, err error) {
	return media.Add(ctx, sd.st, sd.scope, it)
}

// mediaFiles is the demo library: banners for the sliders and banner sections, cards for
// departments, events and notices, album photos, portraits, the logo and three documents.
func mediaFiles(name string) []file {
	files := []file{
		jpegFile("hero-1", "campus-welcome.jpg", sceneCampus, bannerW, bannerH),
		jpegFile("hero-2", "open-day.jpg", sceneLandscape, bannerW, bannerH),
		jpegFile("hero-3", "evening-classes.jpg", sceneCampus, bannerW, bannerH),
		jpegFile("banner-admissions", "admissions-banner.jpg", sceneLandscape, bannerW, bannerH),
		jpegFile("card-science", "science-department.jpg", sceneAbstract, cardW, cardH),
		jpegFile("card-arts", "arts-department.jpg", sceneLandscape, cardW, cardH),
		jpegFile("card-business", "business-department.jpg", sceneAbstract, cardW, cardH),
		jpegFile("card-technology", "technology-department.jpg", sceneCampus, cardW, cardH),
		jpegFile("card-events", "events-card.jpg", sceneLandscape, cardW, cardH),
		jpegFile("card-form", "contact-cover.jpg", sceneAbstract, cardW, cardH),
		jpegFile("about", "about-our-college.jpg", sceneCampus, photoW, photoH),
		{key: "logo", name: "logo.png", mimeType: "image/png", render: logoPNG, alt: name + " logo"},
	}
	for i, e := range events {
		files = append(files, jpegFile("event-"+e.key, "event-"+e.key+".jpg", []scene{sceneLandscape, sceneCampus, sceneAbstract}[i%3], cardW, cardH))
	}
	for _, n := range notices {
		files = append(files, jpegFile("notice-"+n.key, "notice-"+n.key+".jpg", sceneAbstract, cardW, cardH))
	}
	for i := 1; i <= 4; i++ {
		files = append(files, jpegFile(fmt.Sprintf("portrait-%d", i), fmt.Sprintf("portrait-%d.jpg", i), scenePortrait, avatarW, avatarH))
	}
	for _, a := range albums {
		for i := range a.photos {
			s := []scene{sceneCampus, sceneLandscape}[i%2]
			files = append(files, jpegFile(photoKey(a.key, i), fmt.Sprintf("%s-%d.jpg", a.key, i+1), s, photoW, photoH))
		}
	}
	for _, r := range resources(name) {
		files = append(files, file{key: r.key, name: r.fileName, mimeType: "application/pdf",
			render: func() []byte { return pdfDocument(r.title, r.lines) }})
	}
	return files
}

// photoKey is the file key of photo i (0-based) of an album.
func photoKey(album string, i int) string { return fmt.Sprintf("%s-%d", album, i+1) }
