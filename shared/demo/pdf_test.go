package demo

import (
	"bytes"
	"regexp"
	"strconv"
	"testing"
)

// TestPDFDocumentIsWellFormed checks what a strict reader relies on: the header, every xref
// offset pointing at its object, startxref pointing at the xref table, and escaped text.
func TestPDFDocumentIsWellFormed(t *testing.T) {
	doc := pdfDocument("Fees (2026)", []string{`Tuition \ per term`, "Caf\u00e9 hours"})
	if !bytes.HasPrefix(doc, []byte("%PDF-1.4\n")) || !bytes.HasSuffix(doc, []byte("%%EOF\n")) {
		t.Fatalf("header or trailer missing:\n%s", doc)
	}
	m := regexp.MustCompile(`startxref\n(\d+)\n`).FindSubmatch(doc)
	if m == nil {
		t.Fatal("no startxref")
	}
	xref, _ := strconv.Atoi(string(m[1]))
	if !bytes.HasPrefix(doc[xref:], []byte("xref\n0 7\n")) {
		t.Fatalf("startxref %d does not point at the xref table", xref)
	}
	entries := regexp.MustCompile(`(\d{10}) 00000 n `).FindAllSubmatch(doc[xref:], -1)
	if len(entries) != 6 {
		t.Fatalf("%d xref entries, want 6", len(entries))
	}
	for i, e := range entries {
		off, _ := strconv.Atoi(string(e[1]))
		if want := strconv.Itoa(i+1) + " 0 obj\n"; !bytes.HasPrefix(doc[off:], []byte(want)) {
			t.Errorf("entry %d: offset %d holds %q, want %q", i+1, off, doc[off:off+10], want)
		}
	}
	for _, want := range []string{`(Fees \(2026\))`, `(Tuition \\ per term)`, `(Caf? hours)`} {
		if !bytes.Contains(doc, []byte(want)) {
			t.Errorf("content lacks %s", want)
		}
	}
}
