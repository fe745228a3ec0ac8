package demo

import (
	"bytes"
	"fmt"
	"strings"
)

// pdfDocument writes a one-page A4 PDF: a bold title and lines of body text in the standard
// Helvetica fonts, which every reader has, so the file needs no embedded font and stays near
// 1 kB. The byte offsets of the cross-reference table are counted as the objects are written,
// which is what makes the file valid rather than merely readable by lenient viewers. Text is
// ASCII; characters outside it are written as '?'.
func pdfDocument(title string, lines []string) []byte {
	var content bytes.Buffer
	fmt.Fprintf(&content, "BT /F1 20 Tf 72 770 Td (%s) Tj ET\n", pdfText(title))
	y := 735
	for _, line := range lines {
		fmt.Fprintf(&content, "BT /F2 11 Tf 72 %d Td (%s) Tj ET\n", y, pdfText(line))
		y -= 16
	}
	objects := []string{
		"<< /Type /Catalog /Pages 2 0 R >>",
		"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
		"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 4 0 R /F2 5 0 R >> >> /Contents 6 0 R >>",
		"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold >>",
		"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
		fmt.Sprintf("<< /Length %d >>\nstream\n%s\nendstream", content.Len(), content.String()),
	}
	var out bytes.Buffer
	out.WriteString("%PDF-1.4\n")
	offsets := make([]int, len(objects))
	for i, body := range objects {
		offsets[i] = out.Len()
		fmt.Fprintf(&out, "%d 0 obj\n%s\nendobj\n", i+1, body)
	}
	xref := out.Len()
	fmt.Fprintf(&out, "xref\n0 %d\n0000000000 65535 f \n", len(objects)+1)
	for _, off := range offsets {
		fmt.Fprintf(&out, "%010d 00000 n \n", off)
	}
	fmt.Fprintf(&out, "trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n", len(objects)+1, xref)
	return out.Bytes()
}

// pdfText escapes a PDF string literal's delimiters and replaces what is not printable ASCII.
func pdfText(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case r == '\\' || r == '(' || r == ')':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r < 32 || r > 126:
			b.WriteByte('?')
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}
