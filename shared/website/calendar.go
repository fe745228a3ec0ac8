package website

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"
	"unicode/utf8"

	"golang.org/x/net/html"

	"github.com/campuscms/panel/shared/ids"
	"github.com/campuscms/panel/shared/public"
)

// The events calendar (/events.ics) holds the upcoming events and those over in the last
// calendarRecent, at most calendarMax of them and calendarMaxBytes in all: calendar apps drop a
// subscription that grows past about a megabyte. Upcoming events come first (soonest first),
// then past ones (latest first), so what a cap leaves out is the oldest past events, then the
// furthest future ones.
const (
	calendarMax      = 500
	calendarMaxBytes = 900_000
	calendarRecent   = 180 * 24 * time.Hour
	// calendarTextMax bounds the description a Google Calendar or Outlook.com link carries (the
	// whole text is in the .ics): an address of many kilobytes is refused by some browsers.
	calendarTextMax = 1000
)

// calendarType is what a calendar answers with (RFC 5545 §8.1).
const calendarType = "text/calendar; charset=utf-8"

// eventTime is when an event happens, as a calendar writes it.
type eventTime struct {
	// allDay events have dates: start is the first day and end the day after the last (RFC
	// 5545's DTEND is exclusive), both at midnight UTC standing for civil dates. Timed events
	// (a date field given as RFC 3339) have instants; end is zero when the event names none.
	allDay     bool
	start, end time.Time
}

// eventTimes reads an event's start and end dates. An event whose start date is a date alone is
// an all-day event (the panel's date fields); one given as a date and time (the API takes RFC
// 3339) is a timed event, written in the institution's time zone loc. ok is false when the start
// date cannot be read.
func eventTimes(rec public.Record, loc *time.Location) (eventTime, bool) {
	startText, endText := str(rec["startDate"]), str(rec["endDate"])
	if d, err := time.Parse(time.DateOnly, startText); err == nil {
		last := d
		if e, err := time.Parse(time.DateOnly, endText); err == nil {
			last = e
		} else if t, err := time.Parse(time.RFC3339, endText); err == nil {
			y, m, day := t.In(loc).Date()
			last = time.Date(y, m, day, 0, 0, 0, 0, time.UTC)
		}
		if last.Before(d) {
			last = d
		}
		return eventTime{allDay: true, start: d, end: last.AddDate(0, 0, 1)}, true
	}
	start, err := time.Parse(time.RFC3339, startText)
	if err != nil {
		return eventTime{}, false
	}
	et := eventTime{start: start.UTC()}
	if t, err := time.Parse(time.RFC3339, endText); err == nil && t.After(start) {
		et.end = t.UTC()
	} else if e, err := time.Parse(time.DateOnly, endText); err == nil {
		// A timed start with a date as its end: the event runs to the end of that day there.
		y, m, day := e.Date()
		if t := time.Date(y, m, day+1, 0, 0, 0, 0, loc); t.After(start) {
			et.end = t.UTC()
		}
	}
	return et, true
}

// calendarHost is the host in every event's UID: the institution's first domain, else the host
// the calendar was asked on, so an event keeps one UID whichever of the site's addresses it was
// added from (a calendar app then updates it rather than adding it twice).
func calendarHost(q *req) string {
	if d := q.site.Tenant.Domains; len(d) > 0 {
		return d[0]
	}
	return q.host
}

// ics writes an iCalendar object (RFC 5545): content lines folded at 75 octets (never inside a
// UTF-8 sequence) and ended by CRLF.
type ics struct{ b strings.Builder }

// line writes one content line, name (with its parameters) and value, folded.
func (w *ics) line(name, value string) { w.fold(name + ":" + value) }

// text writes a property whose value is TEXT, escaped.
func (w *ics) text(name, value string) { w.line(name, icsText(value)) }

// fold writes l in lines of at most 75 octets, each continuation starting with a space (RFC
// 5545 §3.1), cutting only where a UTF-8 sequence begins.
func (w *ics) fold(l string) {
	limit := 75
	for len(l) > limit {
		cut := limit
		for cut > 0 && !utf8.RuneStart(l[cut]) {
			cut--
		}
		w.b.WriteString(l[:cut])
		w.b.WriteString("\r\n ")
		l = l[cut:]
		limit = 74 // the continuation's leading space counts
	}
	w.b.WriteString(l)
	w.b.WriteString("\r\n")
}

// icsText escapes a TEXT value (RFC 5545 §3.3.11): backslash, semicolon and comma get a
// backslash, a line break becomes \n, and other control characters (which TEXT may not hold)
// are dropped.
func icsText(s string) string {
	var b strings.Builder
	s = strings.ReplaceAll(s, "\r\n", "\n")
	for _, r := range s {
		switch {
		case r == '\\':
			b.WriteString(`\\`)
		case r == ';':
			b.WriteString(`\;`)
		case r == ',':
			b.WriteString(`\,`)
		case r == '\n' || r == '\r':
			b.WriteString(`\n`)
		case r == '\t' || (r >= 0x20 && r != 0x7f):
			b.WriteRune(r)
		}
	}
	return b.String()
}

const (
	icsDate     = "20060102"
	icsLocal    = "20060102T150405"
	icsUTC      = "20060102T150405Z"
	icsProdID   = "-//CampusCMS//Website calendar//EN"
	icsFallback = "19700101T000000Z"
)

// icsWhen writes a DTSTART or DTEND: a DATE for an all-day event, otherwise a time in UTC or, in
// an institution with a time zone, its local time there with the zone's TZID.
func (w *ics) when(name string, t time.Time, allDay bool, loc *time.Location) {
	switch {
	case allDay:
		w.line(name+";VALUE=DATE", t.Format(icsDate))
	case loc == time.UTC:
		w.line(name, t.UTC().Format(icsUTC))
	default:
		w.line(name+";TZID="+loc.String(), t.In(loc).Format(icsLocal))
	}
}

// begin writes the calendar's head; name, when set, names a subscribed calendar.
func (w *ics) begin(name string, loc *time.Location) {
	w.line("BEGIN", "VCALENDAR")
	w.line("VERSION", "2.0")
	w.line("PRODID", icsProdID)
	w.line("CALSCALE", "GREGORIAN")
	if name != "" {
		w.text("X-WR-CALNAME", name)
		if loc != time.UTC {
			w.line("X-WR-TIMEZONE", loc.String())
		}
		// How often a subscribed app should look again (RFC 7986, and Outlook's own name).
		w.line("REFRESH-INTERVAL;VALUE=DURATION", "PT1H")
		w.line("X-PUBLISHED-TTL", "PT1H")
	}
}

// timezone writes loc's VTIMEZONE (RFC 5545 §3.6.5) for the times from..to: one STANDARD or
// DAYLIGHT part for each of the zone's periods that covers some of them, from the time zone
// database's own transitions (time.Time.ZoneBounds), each onset written in the local time it
// ends (TZOFFSETFROM). A zone that never changes gets one part from 1970.
func (w *ics) timezone(loc *time.Location, from, to time.Time) {
	w.line("BEGIN", "VTIMEZONE")
	w.line("TZID", loc.String())
	t := from.In(loc)
	// A zone changes at most a few times a year; the bound only guards against a loop.
	for range 2000 {
		start, end := t.ZoneBounds()
		abbr, offset := t.Zone()
		from := offset
		onset := icsFallback[:len(icsLocal)]
		if !start.IsZero() {
			_, from = start.Add(-time.Second).Zone()
			onset = start.UTC().Add(time.Duration(from) * time.Second).Format(icsLocal)
		}
		part := "STANDARD"
		if t.IsDST() {
			part = "DAYLIGHT"
		}
		w.line("BEGIN", part)
		w.line("DTSTART", onset)
		w.line("TZOFFSETFROM", icsOffset(from))
		w.line("TZOFFSETTO", icsOffset(offset))
		w.text("TZNAME", abbr)
		w.line("END", part)
		if end.IsZero() || end.After(to) {
			break
		}
		t = end
	}
	w.line("END", "VTIMEZONE")
}

// icsOffset is a UTC offset in seconds as RFC 5545's UTC-OFFSET: +hhmm, or +hhmmss when it has
// seconds (the local mean times of the nineteenth century).
func icsOffset(seconds int) string {
	sign := "+"
	if seconds < 0 {
		sign, seconds = "-", -seconds
	}
	out := fmt.Sprintf("%s%02d%02d", sign, seconds/3600, seconds/60%60)
	if s := seconds % 60; s != 0 {
		out += fmt.Sprintf("%02d", s)
	}
	return out
}

// recordTime reads a record's stored time (createdAt, updatedAt: RFC 3339); ok is false when
// there is none.
func recordTime(v any) (time.Time, bool) {
	t, err := time.Parse(time.RFC3339Nano, str(v))
	return t.UTC(), err == nil
}

// vevent writes one event. Its DTSTAMP is when the event was last saved: the calendar has no
// METHOD, so that is what DTSTAMP means (RFC 5545 §3.8.7.2), and the same event is written the
// same way on every request (its cache validator holds).
func (w *ics) vevent(site *public.Site, host string, rec public.Record, et eventTime, loc *time.Location) {
	id := str(rec["id"])
	w.line("BEGIN", "VEVENT")
	w.line("UID", id+"@"+host)
	stamp, ok := recordTime(rec["updatedAt"])
	if !ok {
		stamp, ok = recordTime(rec["createdAt"])
	}
	if ok {
		w.line("DTSTAMP", stamp.Format(icsUTC))
		w.line("LAST-MODIFIED", stamp.Format(icsUTC))
	} else {
		w.line("DTSTAMP", icsFallback)
	}
	if v, ok := rec["version"].(float64); ok && v >= 1 {
		// Each save is a revision: an app that holds the event replaces it with a later one.
		w.line("SEQUENCE", fmt.Sprint(int64(v)-1))
	}
	w.when("DTSTART", et.start, et.allDay, loc)
	if !et.end.IsZero() {
		w.when("DTEND", et.end, et.allDay, loc)
	}
	w.text("SUMMARY", str(rec["title"]))
	if l := strings.TrimSpace(str(rec["location"])); l != "" {
		w.text("LOCATION", l)
	}
	if d := textOf(str(rec["description"])); d != "" {
		w.text("DESCRIPTION", d)
	}
	w.line("URL", site.Absolute("/events/"+id))
	w.line("END", "VEVENT")
}

// calendarEvent is an event with its times, ready to write.
type calendarEvent struct {
	rec public.Record
	at  eventTime
}

// calendar writes events (in order) as one iCalendar object, stopping at the first that would
// take it past maxBytes; name, when set, names a subscribed calendar. A VTIMEZONE is written when a
// timed event is written in the institution's time zone.
func calendar(site *public.Site, host, name string, loc *time.Location, events []calendarEvent, maxBytes int) []byte {
	// The time zone's part covers the times of every candidate, so its size bounds the final one
	// (which covers those kept only).
	zone := func(evs []calendarEvent) string {
		if loc == time.UTC {
			return ""
		}
		var from, to time.Time
		for _, ev := range evs {
			if ev.at.allDay {
				continue
			}
			end := ev.at.end
			if end.IsZero() {
				end = ev.at.start
			}
			if from.IsZero() || ev.at.start.Before(from) {
				from = ev.at.start
			}
			if end.After(to) {
				to = end
			}
		}
		if from.IsZero() {
			return ""
		}
		var w ics
		w.timezone(loc, from, to)
		return w.b.String()
	}
	var head, tail ics
	head.begin(name, loc)
	tail.line("END", "VCALENDAR")
	budget := maxBytes - head.b.Len() - tail.b.Len() - len(zone(events))
	var kept []calendarEvent
	var body strings.Builder
	for _, ev := range events {
		var w ics
		w.vevent(site, host, ev.rec, ev.at, loc)
		if body.Len()+w.b.Len() > budget {
			break // the events are in order of interest: keep a prefix of them
		}
		body.WriteString(w.b.String())
		kept = append(kept, ev)
	}
	out := make([]byte, 0, head.b.Len()+body.Len()+tail.b.Len()+1024)
	out = append(out, head.b.String()...)
	out = append(out, zone(kept)...)
	out = append(out, body.String()...)
	return append(out, tail.b.String()...)
}

// eventsCalendar serves /events.ics: the upcoming events and those over in the last
// calendarRecent, in the institution's time zone (one Query of the events, bounded like the
// lists, after the visit's batch).
func (s *Server) eventsCalendar(q *req) ([]byte, string, error) {
	now := s.read.Now()
	recent := public.EventsWhen(true, now.Add(-calendarRecent))
	recs, err := s.read.List(q.r.Context(), q.site, public.Query{Kind: "events", Keep: recent, Less: public.EventsOrder(now)})
	if err != nil {
		return nil, "", err
	}
	loc := q.visit.Settings.TimeZone()
	events := make([]calendarEvent, 0, min(len(recs), calendarMax))
	for _, rec := range recs {
		if len(events) == calendarMax {
			break
		}
		if at, ok := eventTimes(rec, loc); ok {
			events = append(events, calendarEvent{rec: rec, at: at})
		}
	}
	name := strings.TrimSpace(q.site.Tenant.Name + " events")
	return calendar(q.site, calendarHost(q), name, loc, events, calendarMaxBytes), calendarType, nil
}

// eventICS serves /events/{id}.ics: one visible event, for a calendar app to add.
func (s *Server) eventICS(q *req) ([]byte, string, error) {
	id, ok := strings.CutSuffix(q.r.PathValue("id"), ".ics")
	if !ok || !ids.Valid(id) {
		return nil, "", errNotFound
	}
	rec, found, err := s.read.Record(q.r.Context(), q.site, "events", id)
	if err != nil {
		return nil, "", err
	}
	loc := q.visit.Settings.TimeZone()
	at, ok := eventTimes(rec, loc)
	if !found || !ok {
		return nil, "", errNotFound
	}
	return calendar(q.site, calendarHost(q), "", loc, []calendarEvent{{rec: rec, at: at}}, calendarMaxBytes), calendarType, nil
}

// eventDetail serves /events/{id}: the event's page, or its .ics when the id ends with .ics (a
// route pattern's wildcard takes a whole path segment).
func (s *Server) eventDetail(page http.Handler) http.Handler {
	ics := s.plainWith(public.Want{}, s.eventICS)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasSuffix(r.PathValue("id"), ".ics") {
			ics.ServeHTTP(w, r)
			return
		}
		page.ServeHTTP(w, r)
	})
}

// eventCalendar is an event page's "Add to calendar": the event's .ics, and the same event
// for Google Calendar and Outlook.com; When is its dates (and, for a timed event, its times in
// the institution's time zone) as people read them, WhenISO the same for <time datetime>.
type eventCalendar struct {
	ICS, Google, Outlook string
	When, WhenISO        string
}

// newEventCalendar builds an event page's calendar links; nil when the event's start date
// cannot be read.
func newEventCalendar(site *public.Site, lang *locale, rec public.Record, loc *time.Location) *eventCalendar {
	at, ok := eventTimes(rec, loc)
	if !ok {
		return nil
	}
	id := str(rec["id"])
	page := site.Absolute("/events/" + id)
	details := textOf(str(rec["description"]))
	if r := []rune(details); len(r) > calendarTextMax {
		details = strings.TrimSpace(string(r[:calendarTextMax])) + "…"
	}
	if details != "" {
		details += "\n\n"
	}
	details += page
	title, where := str(rec["title"]), strings.TrimSpace(str(rec["location"]))

	// Google Calendar's template link: dates as start/end, all-day ones as dates with the end
	// exclusive (as in the .ics), timed ones in UTC, shown in the institution's zone (ctz).
	g := url.Values{"action": {"TEMPLATE"}, "text": {title}, "details": {details}}
	o := url.Values{"path": {"/calendar/action/compose"}, "rru": {"addevent"}, "subject": {title}, "body": {details}}
	if where != "" {
		g.Set("location", where)
		o.Set("location", where)
	}
	c := &eventCalendar{ICS: lang.Href("/events/" + id + ".ics")}
	if at.allDay {
		g.Set("dates", at.start.Format(icsDate)+"/"+at.end.Format(icsDate))
		o.Set("startdt", at.start.Format(time.DateOnly))
		o.Set("enddt", at.end.Format(time.DateOnly))
		o.Set("allday", "true")
		last := at.end.AddDate(0, 0, -1)
		c.When, c.WhenISO = lang.day(at.start), at.start.Format(time.DateOnly)
		if !last.Equal(at.start) {
			c.When += " – " + lang.day(last)
		}
	} else {
		end := at.end
		if end.IsZero() {
			end = at.start
		}
		g.Set("dates", at.start.Format(icsUTC)+"/"+end.Format(icsUTC))
		o.Set("startdt", at.start.Format("2006-01-02T15:04:05Z"))
		o.Set("enddt", end.Format("2006-01-02T15:04:05Z"))
		o.Set("allday", "false")
		if loc != time.UTC {
			g.Set("ctz", loc.String())
		}
		c.When, c.WhenISO = timedWhen(lang, at, loc), at.start.In(loc).Format(time.RFC3339)
	}
	c.Google = "https://calendar.google.com/calendar/render?" + g.Encode()
	c.Outlook = "https://outlook.live.com/calendar/0/deeplink/compose?" + o.Encode()
	return c
}

// timedWhen is a timed event's start and end in the institution's time zone: "Mon 2 Nov 2026,
// 09:00–11:00 EST", or both dates when it ends on another day.
func timedWhen(l *locale, at eventTime, loc *time.Location) string {
	start := at.start.In(loc)
	at1 := func(t time.Time) string { return l.day(t) + ", " + l.clock(t) }
	if at.end.IsZero() {
		return at1(start) + " " + start.Format("MST")
	}
	end := at.end.In(loc)
	if y, m, d := start.Date(); end.Year() == y && end.Month() == m && end.Day() == d {
		return at1(start) + "–" + l.clock(end) + " " + end.Format("MST")
	}
	return at1(start) + " – " + at1(end) + " " + end.Format("MST")
}

// textOf is text that may hold HTML (an imported description) as plain text: tags dropped,
// character references decoded, blocks and line breaks on lines of their own. Text without a
// tag is kept as it is.
func textOf(s string) string {
	s = strings.TrimSpace(s)
	if !strings.Contains(s, "<") {
		return s
	}
	var b strings.Builder
	z := html.NewTokenizer(strings.NewReader(s))
	skip := 0 // inside <script> or <style>
	for {
		tt := z.Next()
		switch tt {
		case html.ErrorToken:
			return tidyLines(b.String())
		case html.TextToken:
			if skip == 0 {
				b.Write(z.Text())
			}
		case html.StartTagToken, html.EndTagToken, html.SelfClosingTagToken:
			name, _ := z.TagName()
			switch string(name) {
			case "script", "style":
				if tt == html.StartTagToken {
					skip++
				} else if tt == html.EndTagToken && skip > 0 {
					skip--
				}
			case "br":
				b.WriteByte('\n')
			case "p", "div", "li", "ul", "ol", "h1", "h2", "h3", "h4", "h5", "h6", "blockquote", "pre", "table", "tr", "section", "article":
				b.WriteString("\n\n")
			}
		}
	}
}

// tidyLines trims every line and keeps at most one blank line between paragraphs.
func tidyLines(s string) string {
	var out []string
	blank := false
	for _, l := range strings.Split(s, "\n") {
		l = strings.Join(strings.Fields(l), " ")
		if l == "" {
			blank = len(out) > 0
			continue
		}
		if blank {
			out = append(out, "")
			blank = false
		}
		out = append(out, l)
	}
	return strings.Join(out, "\n")
}
