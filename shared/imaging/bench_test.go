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
	src := imagingtest.CameraPhoto(b, 4000, 3000)
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
