package imaging_test

import (
	"runtime"
	"testing"
	"time"

	"github.com/campuscms/panel/shared/imaging"
	"github.com/campuscms/panel/shared/imaging/imagingtest"
)

// BenchmarkDeriveAPhoto derives the variants of a 4000 × 3000 camera JPEG (orientation 6) and
// reports the source's size and the heap in use at its peak (sampled after each run's decode is
// dropped, so it is a lower bound; -benchmem gives the bytes allocated per run).
//
//	go test -run '^$' -bench DeriveAPhoto -benchmem ./shared/imaging
func BenchmarkDeriveAPhoto(b *testing.B) {
	src := imagingtest.CameraPhoto(b, 4000, 3000, 1)
	var peak uint64
	stop := make(chan struct{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		var m runtime.MemStats
		tick := time.NewTicker(5 * time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-stop:
				return
			case <-tick.C:
			}
			runtime.ReadMemStats(&m)
			peak = max(peak, m.HeapInuse)
		}
	}()
	b.ResetTimer()
	for b.Loop() {
		if _, _, err := imaging.Derive(src); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	close(stop)
	<-done
	b.ReportMetric(float64(len(src))/(1<<20), "MB-source")
	b.ReportMetric(float64(peak)/(1<<20), "MB-peak-heap")
}

// BenchmarkMediaGridBytes reports what the Media Library's grid of 50 camera photos sends before
// (each original) and after (each small copy, {id}/w/thumb) the variants: photos of 3000 × 2000
// pixels, each its own grain.
//
//	go test -run '^$' -bench MediaGridBytes -benchtime 1x ./shared/imaging
func BenchmarkMediaGridBytes(b *testing.B) {
	const photos = 50
	var before, after int
	for i := range photos {
		src := imagingtest.CameraPhoto(b, 3000, 2000, uint64(i+1))
		_, vs, err := imaging.Derive(src)
		if err != nil {
			b.Fatal(err)
		}
		before += len(src)
		after += len(vs[0].Data)
	}
	for b.Loop() {
	}
	b.ReportMetric(float64(before)/(1<<20), "MB-originals")
	b.ReportMetric(float64(after)/(1<<10), "KB-thumbnails")
	b.ReportMetric(float64(before)/float64(after), "x-smaller")
}
