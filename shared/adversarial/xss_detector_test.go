package adversarial_test

import "testing"

// TestDetectorSeesTheRawPayloads keeps the XSS check honest: unsanitised, (nearly) every payload
// of the corpus is flagged, so a sanitiser that let them through would fail the suite.
func TestDetectorSeesTheRawPayloads(t *testing.T) {
	missed := 0
	for _, p := range xssCorpus {
		if dangerous(p) == "" {
			missed++
			t.Logf("not flagged raw: %q", p)
		}
	}
	if missed > len(xssCorpus)/10 {
		t.Fatalf("the detector misses %d of %d raw payloads", missed, len(xssCorpus))
	}
}
