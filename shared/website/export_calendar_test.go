package website

import "time"

// ICSTimezone is the VTIMEZONE the calendar writes for loc over from..to, wrapped in a
// VCALENDAR (its tests read it back).
func ICSTimezone(loc *time.Location, from, to time.Time) string {
	var w ics
	w.begin("", loc)
	w.timezone(loc, from, to)
	w.line("END", "VCALENDAR")
	return w.b.String()
}

// ICSFold is a content line as the calendar writes it: folded, CRLF-ended.
func ICSFold(line string) string {
	var w ics
	w.fold(line)
	return w.b.String()
}

// ICSText is a TEXT value escaped as the calendar writes it.
func ICSText(s string) string { return icsText(s) }
