package formats

import (
	"strings"
	"testing"
)

func TestFormats(t *testing.T) {
	cases := []struct {
		name  string
		check func(string) bool
		in    string
		want  bool
	}{
		{"email", Email, "head@school.edu", true},
		{"email without a dot in the host", Email, "head@school", false},
		{"email with a space", Email, "head teacher@school.edu", false},
		{"email over 254 bytes", Email, strings.Repeat("a", 250) + "@b.cd", false},
		{"date", Date, "2026-11-22", true},
		{"date with a time", Date, "2026-11-22T10:00", false},
		{"slug", Slug, "open-day-2", true},
		{"slug with capitals", Slug, "Open-Day", false},
		{"slug over 100", Slug, strings.Repeat("a", 101), false},
		{"empty slug", Slug, "", false},
		{"phone", Phone, "+1 555 010 0100", true},
		{"phone with brackets and an extension", Phone, "(020) 7946-0958 ext. 204", true},
		{"phone with a short extension", Phone, "01632 960 123 x12", true},
		{"phone with letters", Phone, "call the office", false},
		{"phone of two digits", Phone, "12", false},
		{"phone over 40 bytes", Phone, strings.Repeat("1", 41), false},
		{"colour", Color, "#1A73e8", true},
		{"short colour", Color, "#fff", true},
		{"colour without #", Color, "1a73e8", false},
		{"colour name", Color, "red", false},
		{"time zone", zone, "America/New_York", true},
		{"time zone in three parts", zone, "America/Argentina/Buenos_Aires", true},
		{"time zone UTC", zone, "UTC", true},
		{"fixed offset zone", zone, "Etc/GMT-14", true},
		{"unknown time zone", zone, "Mars/Olympus_Mons", false},
		{"the server's own zone", zone, "Local", false},
		{"empty time zone", zone, "", false},
		{"time zone as a path", zone, "../../etc/passwd", false},
		{"time zone as an absolute path", zone, "/usr/share/zoneinfo/UTC", false},
		{"time zone as a POSIX rule", zone, "EST5EDT,M3.2.0,M11.1.0", false},
		{"time zone with a space", zone, "America/New York", false},
	}
	for _, c := range cases {
		if got := c.check(c.in); got != c.want {
			t.Errorf("%s: %q → %v, want %v", c.name, c.in, got, c.want)
		}
	}
}

// zone is TimeZone as a yes or no.
func zone(s string) bool {
	_, ok := TimeZone(s)
	return ok
}

func TestCSVCell(t *testing.T) {
	cases := map[string]string{"=1+2": "'=1+2", "+A1": "'+A1", "-2": "'-2", "@SUM(A1)": "'@SUM(A1)", "\tx": "'\tx",
		"plain": "plain", "": "", "2026-01-01": "2026-01-01", "a=b": "a=b"}
	for in, want := range cases {
		if got := CSVCell(in); got != want {
			t.Errorf("CSVCell(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestShorten(t *testing.T) {
	for _, c := range []struct {
		in   string
		n    int
		want string
	}{
		{"Open Day", 8, "Open Day"},
		{"Open Day", 5, "Open…"},
		{"Événement été", 4, "Évé…"},
	} {
		if got := Shorten(c.in, c.n); got != c.want {
			t.Errorf("Shorten(%q, %d) = %q, want %q", c.in, c.n, got, c.want)
		}
	}
}
