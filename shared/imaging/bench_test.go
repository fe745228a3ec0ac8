package imaging

import (
	"bytes"
	"encoding/binary"
	"image"
	"image/jpeg"
	"math/rand/v2"
	"runtime"
	"testing"
	"time"
)

// BenchmarkDeriveAPhoto derives the variants of a 4000 × 3000 camera JPEG (orientation 6) and
// reports the source's size and the heap in use at its peak (sampled after each run's decode is
// dropped, so it is a lower bound; -benchmem gives the bytes allocated per run).
//
//	go test -run '^$' -bench DeriveAPhoto -benchmem ./shared/imaging
func BenchmarkDeriveAPhoto(b *testing.B) {
	src := noisyPhoto(b, 4000, 3000)
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
		if _, _, err := Derive(src); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	close(stop)
	<-done
	b.ReportMetric(float64(len(src))/(1<<20), "MB-source")
	b.ReportMetric(float64(peak)/(1<<20), "MB-peak-heap")
}

// noisyPhoto is a w×h camera-like JPEG (gradients and grain, quality 88, EXIF orientation 6):
// grain keeps the file near a real photo's size, which a flat test image is not.
func noisyPhoto(tb testing.TB, w, h int) []byte {
	img := image.NewYCbCr(image.Rect(0, 0, w, h), image.YCbCrSubsampleRatio420)
	rng := rand.New(rand.NewPCG(1, 2))
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			img.Y[img.YOffset(x, y)] = uint8((x*255/w+y*255/h)/2 + rng.IntN(40))
		}
	}
	for i := range img.Cb {
		img.Cb[i], img.Cr[i] = uint8(100+rng.IntN(30)), uint8(140+rng.IntN(30))
	}
	var enc bytes.Buffer
	if err := jpeg.Encode(&enc, img, &jpeg.Options{Quality: 88}); err != nil {
		tb.Fatal(err)
	}
	raw := enc.Bytes()
	exif := exifBlock(6)
	seg := binary.BigEndian.AppendUint16([]byte{0xFF, 0xE1}, uint16(len(exif)+2))
	out := append(append(append([]byte{}, raw[:2]...), seg...), exif...)
	return append(out, raw[2:]...)
}
