package website_test

import (
	"context"
	"fmt"
	"html"
	"net/url"
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/campuscms/panel/shared/ids"
	"github.com/campuscms/panel/shared/store"
	"github.com/campuscms/panel/shared/testkit"
	"github.com/campuscms/panel/shared/website"
)

// icsProp is one property of a parsed iCalendar component: its name, parameters and raw value
// (still escaped).
type icsProp struct {
	name   string
	params map[string]string
	value  string
}

// icsComp is a parsed iCalendar component (VCALENDAR, VEVENT, VTIMEZONE, STANDARD…).
type icsComp struct {
	name  string
	props []icsProp
	comps []*icsComp
}

func (c *icsComp) all(name string) []icsProp {
	var out []icsProp
	for _, p := range c.props {
		if p.name == name {
			out = append(out, p)
		}
	}
	return out
}

// one is the component's only property name; the test fails if there is not exactly one.
func (c *icsComp) one(t *testing.T, name string) icsProp {
	t.Helper()
	ps := c.all(name)
	if len(ps) != 1 {
		t.Fatalf("%s has %d %s properties, want 1", c.name, len(ps), name)
	}
	return ps[0]
}

func (c *icsComp) children(name string) []*icsComp {
	var out []*icsComp
	for _, k := range c.comps {
		if k.name == name {
			out = append(out, k)
		}
	}
	return out
}

// parseICS reads an iCalendar object strictly (RFC 5545 §3.1): every line ends with CRLF and is
// at most 75 octets of valid UTF-8 (folding never cuts a character), continuation lines start
// with one space, every content line is name[;param=value]*:value, and BEGIN/END nest. It
// returns the VCALENDAR and the unfolded content lines.
func parseICS(t *testing.T, body string) (*icsComp, []string) {
	t.Helper()
	if !strings.HasSuffix(body, "\r\n") {
		t.Fatalf("the calendar does not end with CRLF: %q", body[max(0, len(body)-20):])
	}
	physical := strings.Split(strings.TrimSuffix(body, "\r\n"), "\r\n")
	var logical []string
	for i, l := range physical {
		if strings.ContainsAny(l, "\r\n") {
			t.Fatalf("line %d holds a bare CR or LF: %q", i+1, l)
		}
		if len(l) > 75 {
			t.Fatalf("line %d is %d octets, over 75: %q", i+1, len(l), l)
		}
		if !utf8.ValidString(l) {
			t.Fatalf("line %d is not valid UTF-8 (a fold cut a character): %q", i+1, l)
		}
		if strings.HasPrefix(l, " ") || strings.HasPrefix(l, "\t") {
			if len(logical) == 0 {
				t.Fatal("the calendar starts with a continuation line")
			}
			logical[len(logical)-1] += l[1:]
			continue
		}
		if l == "" {
			t.Fatalf("line %d is empty", i+1)
		}
		logical = append(logical, l)
	}
	var stack []*icsComp
	var root *icsComp
	for _, l := range logical {
		head, value, ok := strings.Cut(l, ":")
		if !ok {
			t.Fatalf("content line without a colon: %q", l)
		}
		parts := strings.Split(head, ";")
		p := icsProp{name: parts[0], params: map[string]string{}, value: value}
		if !regexp.MustCompile(`^[A-Z][A-Z0-9-]*$`).MatchString(p.name) {
			t.Fatalf("bad property name %q", p.name)
		}
		for _, kv := range parts[1:] {
			k, v, ok := strings.Cut(kv, "=")
			if !ok || k == "" || v == "" {
				t.Fatalf("bad parameter %q in %q", kv, l)
			}
			p.params[k] = v
		}
		switch p.name {
		case "BEGIN":
			c := &icsComp{name: value}
			if len(stack) > 0 {
				top := stack[len(stack)-1]
				top.comps = append(top.comps, c)
			} else if root != nil {
				t.Fatal("two top-level components")
			} else {
				root = c
			}
			stack = append(stack, c)
		case "END":
			if len(stack) == 0 || stack[len(stack)-1].name != value {
				t.Fatalf("END:%s does not close the open component", value)
			}
			stack = stack[:len(stack)-1]
		default:
			if len(stack) == 0 {
				t.Fatalf("property outside a component: %q", l)
			}
			top := stack[len(stack)-1]
			top.props = append(top.props, p)
		}
	}
	if len(stack) != 0 || root == nil || root.name != "VCALENDAR" {
		t.Fatalf("components left open or no VCALENDAR: %v", stack)
	}
	return root, logical
}

// icsUnescape reads a TEXT value (RFC 5545 §3.3.11): \\ \; \, \n and \N are the only escapes,
// and a comma or semicolon must be escaped.
func icsUnescape(t *testing.T, v string) string {
	t.Helper()
	var b strings.Builder
	for i := 0; i < len(v); i++ {
		switch c := v[i]; c {
		case '\\':
			if i+1 == len(v) {
				t.Fatalf("TEXT ends with a backslash: %q", v)
			}
			i++
			switch v[i] {
			case '\\', ';', ',':
				b.WriteByte(v[i])
			case 'n', 'N':
				b.WriteByte('\n')
			default:
				t.Fatalf("bad escape \\%c in %q", v[i], v)
			}
		case ';', ',':
			t.Fatalf("unescaped %q in TEXT %q", c, v)
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// zonePart is one STANDARD or DAYLIGHT part of a VTIMEZONE: from its onset (in UTC) the offset
// is to.
type zonePart struct {
	onset time.Time
	to    time.Duration
	dst   bool
}

// offsetOf reads a UTC-OFFSET (+hhmm or +hhmmss).
func offsetOf(t *testing.T, s string) time.Duration {
	t.Helper()
	m := regexp.MustCompile(`^([+-])(\d\d)(\d\d)(\d\d)?$`).FindStringSubmatch(s)
	if m == nil {
		t.Fatalf("bad UTC offset %q", s)
	}
	var h, mi, sec int
	fmt.Sscan(m[2], &h)
	fmt.Sscan(m[3], &mi)
	if m[4] != "" {
		fmt.Sscan(m[4], &sec)
	}
	d := time.Duration(h)*time.Hour + time.Duration(mi)*time.Minute + time.Duration(sec)*time.Second
	if m[1] == "-" {
		d = -d
	}
	return d
}

// zoneParts reads a VTIMEZONE's parts in order of onset. Each onset is local time in the offset
// before it (TZOFFSETFROM), as RFC 5545 says.
func zoneParts(t *testing.T, tz *icsComp) []zonePart {
	t.Helper()
	var out []zonePart
	for _, part := range tz.comps {
		if part.name != "STANDARD" && part.name != "DAYLIGHT" {
			t.Fatalf("VTIMEZONE holds %s", part.name)
		}
		if len(part.all("RRULE")) > 0 || len(part.all("RDATE")) > 0 {
			t.Fatalf("%s has a rule this reader does not follow", part.name)
		}
		local, err := time.Parse("20060102T150405", part.one(t, "DTSTART").value)
		if err != nil {
			t.Fatalf("%s DTSTART: %v", part.name, err)
		}
		from, to := offsetOf(t, part.one(t, "TZOFFSETFROM").value), offsetOf(t, part.one(t, "TZOFFSETTO").value)
		out = append(out, zonePart{onset: local.Add(-from), to: to, dst: part.name == "DAYLIGHT"})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].onset.Before(out[j].onset) })
	return out
}

// resolve turns a local time of the zone into an instant with the VTIMEZONE's own parts only:
// the offset is that of the last part whose onset is not after it.
func resolve(t *testing.T, parts []zonePart, local time.Time) time.Time {
	t.Helper()
	var found *zonePart
	for i := range parts {
		if !parts[i].onset.After(local.Add(-parts[i].to)) {
			found = &parts[i]
		}
	}
	if found == nil {
		t.Fatalf("the VTIMEZONE does not cover %v", local)
	}
	return local.Add(-found.to)
}

// icsInstant reads a DTSTART or DTEND that names a time: UTC (…Z) or local with a TZID
// resolved through the calendar's VTIMEZONE.
func icsInstant(t *testing.T, cal *icsComp, p icsProp) time.Time {
	t.Helper()
	if strings.HasSuffix(p.value, "Z") {
		at, err := time.Parse("20060102T150405Z", p.value)
		if err != nil {
			t.Fatal(err)
		}
		return at
	}
	tzid := p.params["TZID"]
	if tzid == "" {
		t.Fatalf("%s:%s is a floating time", p.name, p.value)
	}
	for _, tz := range cal.children("VTIMEZONE") {
		if tz.one(t, "TZID").value == tzid {
			local, err := time.Parse("20060102T150405", p.value)
			if err != nil {
				t.Fatal(err)
			}
			return resolve(t, zoneParts(t, tz), local)
		}
	}
	t.Fatalf("no VTIMEZONE for TZID %s", tzid)
	return time.Time{}
}

// eventsByUID is a calendar's events by UID.
func eventsByUID(t *testing.T, cal *icsComp) map[string]*icsComp {
	t.Helper()
	out := map[string]*icsComp{}
	for _, ev := range cal.children("VEVENT") {
		uid := ev.one(t, "UID").value
		if out[uid] != nil {
			t.Fatalf("UID %s twice", uid)
		}
		for _, must := range []string{"DTSTAMP", "DTSTART", "SUMMARY", "URL"} {
			ev.one(t, must)
		}
		if !regexp.MustCompile(`^\d{8}T\d{6}Z$`).MatchString(ev.one(t, "DTSTAMP").value) {
			t.Fatalf("DTSTAMP %q is not a UTC time", ev.one(t, "DTSTAMP").value)
		}
		out[uid] = ev
	}
	return out
}

// TestEventsCalendar: /events.ics for a tenant in America/New_York parses back strictly: lines
// folded at 75 octets on character boundaries and CRLF, text escaped and read back as written,
// all-day events as dates (end exclusive), timed ones in the tenant's zone with a VTIMEZONE that
// resolves them to the instants stored on both sides of the daylight saving change, UIDs stable
// across requests and the same as the event's own .ics; nothing hidden, scheduled, expired, long
// past or another tenant's; cached, no cookie.
func TestEventsCalendar(t *testing.T) {
	tn, other := testkit.NewTenant(t), testkit.NewTenant(t)
	staff(t, tn, "PATCH", "/site-settings", map[string]any{"timeZone": "America/New_York"})
	day := func(d int) string { return time.Now().AddDate(0, 0, d).Format(time.DateOnly) }
	next := time.Now().Year() + 1
	title := `Sports day; heats, finals \ relay`
	where := "Field 2, North gate; by the \\ sign"
	long := strings.Repeat("Ünïcødé 🎉 façade ", 20)
	allDay := staff(t, tn, "POST", "/events", map[string]any{"title": title, "startDate": day(10), "endDate": day(12),
		"location": where, "description": "<p>Bring <b>water</b> &amp; hats,</p><p>Line two; done</p>" + long}).Get("result.id").(string)
	oneDay := staff(t, tn, "POST", "/events", map[string]any{"title": "Open day", "startDate": day(3)}).Get("result.id").(string)
	// Noon in New York in winter (EST, UTC-5) and in summer (EDT, UTC-4).
	winter := staff(t, tn, "POST", "/events", map[string]any{"title": "Winter concert", "startDate": fmt.Sprintf("%d-01-15T17:00:00Z", next),
		"endDate": fmt.Sprintf("%d-01-15T19:30:00Z", next)}).Get("result.id").(string)
	summer := staff(t, tn, "POST", "/events", map[string]any{"title": "Summer fair", "startDate": fmt.Sprintf("%d-07-15T16:00:00Z", next),
		"endDate": fmt.Sprintf("%d-07-16T02:00:00Z", next)}).Get("result.id").(string)
	recent := staff(t, tn, "POST", "/events", map[string]any{"title": "Last month's fair", "startDate": day(-30)}).Get("result.id").(string)
	for _, hidden := range []map[string]any{
		{"title": "Hidden event", "startDate": day(5), "status": false},
		{"title": "Not yet published", "startDate": day(5), "publishAt": time.Now().Add(48 * time.Hour).Format(time.RFC3339)},
		{"title": "Expired event", "startDate": day(5), "publishAt": time.Now().Add(-48 * time.Hour).Format(time.RFC3339),
			"unpublishAt": time.Now().Add(-time.Hour).Format(time.RFC3339)},
		{"title": "Long past", "startDate": day(-400)},
	} {
		staff(t, tn, "POST", "/events", hidden)
	}
	staff(t, other, "POST", "/events", map[string]any{"title": "Other school's event", "startDate": day(4)})

	p := get(t, tn, "/events.ics")
	must(t, p, 200)
	if ct := p.header.Get("Content-Type"); ct != "text/calendar; charset=utf-8" {
		t.Errorf("Content-Type %q", ct)
	}
	if cc := p.header.Get("Cache-Control"); !strings.Contains(cc, "public") || p.header.Get("ETag") == "" {
		t.Errorf("cache headers: %q, ETag %q", cc, p.header.Get("ETag"))
	}
	if c := p.header.Get("Set-Cookie"); c != "" {
		t.Errorf("Set-Cookie %q", c)
	}
	if p.calls > 3 {
		t.Errorf("the calendar took %d DynamoDB calls, want at most 3", p.calls)
	}
	cal, lines := parseICS(t, p.body)
	if cal.one(t, "VERSION").value != "2.0" || cal.one(t, "PRODID").value == "" {
		t.Fatalf("VERSION/PRODID: %v", cal.props)
	}
	folded := strings.Contains(p.body, "\r\n ")
	if !folded {
		t.Error("no line was folded, though the description is long")
	}
	for _, bad := range []string{"Hidden event", "Not yet published", "Expired event", "Long past", "Other school"} {
		if strings.Contains(strings.Join(lines, "\n"), bad) {
			t.Errorf("the calendar holds %q", bad)
		}
	}
	host := tn.ID + ".localhost"
	evs := eventsByUID(t, cal)
	if len(evs) != 5 {
		t.Fatalf("%d events, want 5: %v", len(evs), evs)
	}
	for _, id := range []string{allDay, oneDay, winter, summer, recent} {
		ev := evs[id+"@"+host]
		if ev == nil {
			t.Fatalf("no event with UID %s@%s", id, host)
		}
		if u := ev.one(t, "URL").value; u != "http://"+host+":8080/events/"+id {
			t.Errorf("URL %q", u)
		}
	}

	// Text round trip: what staff typed, escaped on the way out, read back the same.
	ev := evs[allDay+"@"+host]
	if got := icsUnescape(t, ev.one(t, "SUMMARY").value); got != title {
		t.Errorf("SUMMARY %q, want %q", got, title)
	}
	if got := icsUnescape(t, ev.one(t, "LOCATION").value); got != where {
		t.Errorf("LOCATION %q, want %q", got, where)
	}
	// The description as plain text: tags dropped, references decoded, paragraphs apart.
	wantDesc := "Bring water & hats,\n\nLine two; done\n\n" + strings.Join(strings.Fields(long), " ")
	if got := icsUnescape(t, ev.one(t, "DESCRIPTION").value); got != wantDesc {
		t.Errorf("DESCRIPTION %q, want %q", got, wantDesc)
	}
	// All-day: dates, the end the day after the last.
	compact := func(d string) string { return strings.ReplaceAll(d, "-", "") }
	if s := ev.one(t, "DTSTART"); s.params["VALUE"] != "DATE" || s.value != compact(day(10)) {
		t.Errorf("all-day DTSTART %v", s)
	}
	if e := ev.one(t, "DTEND"); e.params["VALUE"] != "DATE" || e.value != compact(day(13)) {
		t.Errorf("all-day DTEND %v, want %s", e, compact(day(13)))
	}
	if e := evs[oneDay+"@"+host].one(t, "DTEND"); e.value != compact(day(4)) {
		t.Errorf("a one-day event ends %v, want %s", e, compact(day(4)))
	}

	// Timed: local noon in New York, resolved through the calendar's own VTIMEZONE to the stored
	// instants, in winter (-05:00) and in summer (-04:00).
	for id, want := range map[string][2]string{
		winter: {fmt.Sprintf("%d0115T120000", next), fmt.Sprintf("%d-01-15T17:00:00Z", next)},
		summer: {fmt.Sprintf("%d0715T120000", next), fmt.Sprintf("%d-07-15T16:00:00Z", next)},
	} {
		ev := evs[id+"@"+host]
		start := ev.one(t, "DTSTART")
		if start.params["TZID"] != "America/New_York" || start.value != want[0] {
			t.Errorf("DTSTART %v, want TZID=America/New_York:%s", start, want[0])
		}
		if got := icsInstant(t, cal, start).Format(time.RFC3339); got != want[1] {
			t.Errorf("DTSTART %s resolves to %s, want %s", start.value, got, want[1])
		}
	}
	if end := icsInstant(t, cal, evs[summer+"@"+host].one(t, "DTEND")); !end.Equal(time.Date(next, 7, 16, 2, 0, 0, 0, time.UTC)) {
		t.Errorf("the summer fair ends %v", end)
	}
	tzs := cal.children("VTIMEZONE")
	if len(tzs) != 1 || tzs[0].one(t, "TZID").value != "America/New_York" {
		t.Fatalf("VTIMEZONE %v", tzs)
	}
	var daylight, standard bool
	for _, part := range zoneParts(t, tzs[0]) {
		daylight = daylight || part.dst && part.to == -4*time.Hour
		standard = standard || !part.dst && part.to == -5*time.Hour
	}
	if !daylight || !standard {
		t.Errorf("the VTIMEZONE lacks EDT or EST: %v", tzs[0].comps)
	}

	// Stable: the same UIDs (and the same bytes) on the next request; the event's own .ics has
	// the same event.
	again := get(t, tn, "/events.ics")
	if again.body != p.body {
		t.Error("the calendar changed between two requests")
	}
	for _, id := range []string{allDay, winter} {
		one := get(t, tn, "/events/"+id+".ics")
		must(t, one, 200)
		single, _ := parseICS(t, one.body)
		got := eventsByUID(t, single)
		if len(got) != 1 || got[id+"@"+host] == nil {
			t.Fatalf("/events/%s.ics holds %v", id, got)
		}
		if id == winter && len(single.children("VTIMEZONE")) != 1 {
			t.Error("a timed event's .ics has no VTIMEZONE")
		}
		if single.one(t, "VERSION").value != "2.0" || one.header.Get("Content-Type") != "text/calendar; charset=utf-8" {
			t.Errorf("%s.ics: %v %q", id, single.props, one.header.Get("Content-Type"))
		}
	}
}

// TestEventICSVisibility: an event's .ics answers only what its page would: a hidden event, a
// malformed id and another tenant's event are 404s.
func TestEventICSVisibility(t *testing.T) {
	tn, other := testkit.NewTenant(t), testkit.NewTenant(t)
	soon := time.Now().AddDate(0, 0, 5).Format(time.DateOnly)
	hidden := staff(t, tn, "POST", "/events", map[string]any{"title": "Hidden", "startDate": soon, "status": false}).Get("result.id").(string)
	theirs := staff(t, other, "POST", "/events", map[string]any{"title": "Theirs", "startDate": soon}).Get("result.id").(string)
	for _, path := range []string{"/events/" + hidden + ".ics", "/events/" + theirs + ".ics", "/events/x.ics", "/events/.ics",
		"/events/" + ids.New() + ".ics"} {
		if p := get(t, tn, path); p.status != 404 || strings.Contains(p.body, "BEGIN:VCALENDAR") {
			t.Errorf("%s: %d", path, p.status)
		}
	}
	must(t, get(t, other, "/events/"+theirs+".ics"), 200, "SUMMARY:Theirs")
}

// TestEventPageAddToCalendar: an event's page offers its .ics, a Google Calendar link and an
// Outlook.com link carrying the event's dates (all-day: dates, the end exclusive; timed: UTC,
// shown in the tenant's time zone), title and place.
func TestEventPageAddToCalendar(t *testing.T) {
	tn := testkit.NewTenant(t)
	staff(t, tn, "PATCH", "/site-settings", map[string]any{"timeZone": "America/New_York"})
	start := time.Now().AddDate(0, 0, 7)
	allDay := staff(t, tn, "POST", "/events", map[string]any{"title": "Open day & fair", "startDate": start.Format(time.DateOnly),
		"endDate": start.AddDate(0, 0, 1).Format(time.DateOnly), "location": "Main hall"}).Get("result.id").(string)
	timedStart := time.Date(time.Now().Year()+1, 1, 15, 17, 0, 0, 0, time.UTC)
	timed := staff(t, tn, "POST", "/events", map[string]any{"title": "Concert", "startDate": timedStart.Format(time.RFC3339),
		"endDate": timedStart.Add(2 * time.Hour).Format(time.RFC3339)}).Get("result.id").(string)

	links := func(body string) map[string]string {
		out := map[string]string{}
		for _, m := range regexp.MustCompile(`<a href="([^"]+)"[^>]*>([^<]+)</a>`).FindAllStringSubmatch(body, -1) {
			out[m[2]] = html.UnescapeString(m[1])
		}
		return out
	}
	p := get(t, tn, "/events/"+allDay)
	must(t, p, 200, `<h2 id="add-calendar">Add to calendar</h2>`)
	l := links(p.body)
	if l["Calendar file (.ics)"] != "/events/"+allDay+".ics" {
		t.Errorf(".ics link %q", l["Calendar file (.ics)"])
	}
	g, err := url.Parse(l["Google Calendar"])
	if err != nil || g.Host != "calendar.google.com" || g.Path != "/calendar/render" {
		t.Fatalf("Google link %q", l["Google Calendar"])
	}
	gq := g.Query()
	compact := func(d time.Time) string { return d.Format("20060102") }
	if gq.Get("action") != "TEMPLATE" || gq.Get("text") != "Open day & fair" || gq.Get("location") != "Main hall" ||
		gq.Get("dates") != compact(start)+"/"+compact(start.AddDate(0, 0, 2)) ||
		!strings.Contains(gq.Get("details"), "http://"+tn.ID+".localhost:8080/events/"+allDay) {
		t.Errorf("Google link query %v", gq)
	}
	o, err := url.Parse(l["Outlook.com"])
	if err != nil || o.Host != "outlook.live.com" || o.Path != "/calendar/0/deeplink/compose" {
		t.Fatalf("Outlook link %q", l["Outlook.com"])
	}
	oq := o.Query()
	if oq.Get("rru") != "addevent" || oq.Get("path") != "/calendar/action/compose" || oq.Get("subject") != "Open day & fair" ||
		oq.Get("startdt") != start.Format(time.DateOnly) || oq.Get("enddt") != start.AddDate(0, 0, 2).Format(time.DateOnly) ||
		oq.Get("allday") != "true" || oq.Get("location") != "Main hall" {
		t.Errorf("Outlook link query %v", oq)
	}

	p = get(t, tn, "/events/"+timed)
	must(t, p, 200, "12:00–14:00 EST", `datetime="`+timedStart.In(mustZone(t, "America/New_York")).Format(time.RFC3339)+`"`)
	l = links(p.body)
	g, _ = url.Parse(l["Google Calendar"])
	if gq := g.Query(); gq.Get("dates") != timedStart.Format("20060102T150405Z")+"/"+timedStart.Add(2*time.Hour).Format("20060102T150405Z") ||
		gq.Get("ctz") != "America/New_York" {
		t.Errorf("Google link query for a timed event %v", gq)
	}
	o, _ = url.Parse(l["Outlook.com"])
	if oq := o.Query(); oq.Get("startdt") != timedStart.Format("2006-01-02T15:04:05Z") || oq.Get("allday") != "false" {
		t.Errorf("Outlook link query for a timed event %v", oq)
	}
	// The list links the calendar for subscribing.
	must(t, get(t, tn, "/events"), 200, `href="webcal://`+tn.ID+`.localhost:8080/events.ics"`, `href="/events.ics"`)
}

func mustZone(t *testing.T, name string) *time.Location {
	t.Helper()
	loc, err := time.LoadLocation(name)
	if err != nil {
		t.Fatal(err)
	}
	return loc
}

// seedEvents writes n live events of tenant tn straight into the table (as the engine stores
// them), starting tomorrow, one a day, each with description desc: the caps' tests need more
// events than creating them one by one through the API would be worth.
func seedEvents(t *testing.T, tn testkit.Tenant, n int, desc string) []string {
	t.Helper()
	scope, err := store.NewScope(tn.ID)
	if err != nil {
		t.Fatal(err)
	}
	st := testkit.Deps(t).Store
	now := time.Now().UTC().Format(time.RFC3339Nano)
	var puts []any
	var out []string
	for i := range n {
		id := ids.New()
		out = append(out, id)
		puts = append(puts, map[string]any{"PK": scope.Collection("events"), "SK": id, "id": id, "title": fmt.Sprintf("Seeded event %d", i),
			"startDate": time.Now().AddDate(0, 0, 1+i).Format(time.DateOnly), "description": desc, "status": true,
			"version": 1, "createdAt": now, "updatedAt": now})
	}
	for start := 0; start < len(puts); start += 25 {
		batch := puts[start:min(len(puts), start+25)]
		if _, err := st.Table.Batch("PK", "SK").Write().Put(batch...).Run(context.Background()); err != nil {
			t.Fatal(err)
		}
	}
	return out
}

// TestCalendarCaps: the calendar holds at most 500 events (the soonest) and at most 900 kB;
// past the size cap it keeps the soonest events that fit, and still parses.
func TestCalendarCaps(t *testing.T) {
	t.Run("events", func(t *testing.T) {
		t.Parallel()
		tn := testkit.NewTenant(t)
		seeded := seedEvents(t, tn, 520, "")
		p := get(t, tn, "/events.ics")
		must(t, p, 200)
		cal, _ := parseICS(t, p.body)
		evs := eventsByUID(t, cal)
		if len(evs) != 500 {
			t.Fatalf("%d events, want 500", len(evs))
		}
		for _, id := range seeded[:500] {
			if evs[id+"@"+tn.ID+".localhost"] == nil {
				t.Fatalf("one of the 500 soonest events is missing: %s", id)
			}
		}
	})
	t.Run("bytes", func(t *testing.T) {
		t.Parallel()
		tn := testkit.NewTenant(t)
		// 5 kB a description as stored (the list reads a megabyte at most), twice that escaped.
		seeded := seedEvents(t, tn, 110, strings.Repeat("a;b,c\\", 850))
		p := get(t, tn, "/events.ics")
		must(t, p, 200)
		if len(p.body) > 900_000 {
			t.Fatalf("the calendar is %d bytes, over 900 kB", len(p.body))
		}
		cal, _ := parseICS(t, p.body)
		evs := eventsByUID(t, cal)
		if len(evs) < 60 || len(evs) >= 110 {
			t.Fatalf("%d events in %d bytes", len(evs), len(p.body))
		}
		for _, id := range seeded[:len(evs)] {
			if evs[id+"@"+tn.ID+".localhost"] == nil {
				t.Fatalf("the size cap dropped %s before later events", id)
			}
		}
	})
}

// TestVTimezoneResolvesEveryHour: for zones north and south of the equator, with and without
// daylight saving and with a half-hour offset, the VTIMEZONE the calendar writes turns the local
// time of every hour over two years back into that hour (the repeated hour of a change back
// aside, which local time alone cannot tell apart).
func TestVTimezoneResolvesEveryHour(t *testing.T) {
	from := time.Date(time.Now().Year(), 1, 1, 0, 0, 0, 0, time.UTC)
	to := from.AddDate(2, 0, 0)
	for _, name := range []string{"America/New_York", "Europe/London", "Australia/Sydney", "Asia/Kolkata", "America/St_Johns", "Pacific/Chatham"} {
		t.Run(name, func(t *testing.T) {
			loc := mustZone(t, name)
			cal, _ := parseICS(t, website.ICSTimezone(loc, from, to))
			tzs := cal.children("VTIMEZONE")
			if len(tzs) != 1 || tzs[0].one(t, "TZID").value != name {
				t.Fatalf("VTIMEZONE %v", tzs)
			}
			parts := zoneParts(t, tzs[0])
			if len(parts) > 8 {
				t.Errorf("%d parts for two years", len(parts))
			}
			for at := from; !at.After(to); at = at.Add(time.Hour) {
				wall, _ := time.Parse("20060102T150405", at.In(loc).Format("20060102T150405"))
				got := resolve(t, parts, wall)
				if got.Equal(at) {
					continue
				}
				if got.In(loc).Format(time.DateTime) != at.In(loc).Format(time.DateTime) {
					t.Fatalf("local %s resolves to %v, want %v", wall.Format(time.DateTime), got, at)
				}
			}
		})
	}
}

// TestICSFoldingAndEscaping: any content line folds into lines of at most 75 octets, each valid
// UTF-8, and unfolds back to itself; TEXT escaping reads back to the text.
func TestICSFoldingAndEscaping(t *testing.T) {
	var lines []string
	for n := range 200 {
		for _, unit := range []string{"a", "é", "€", "🎉", "a€🎉é"} {
			lines = append(lines, "DESCRIPTION:"+strings.Repeat("x", n%7)+strings.Repeat(unit, n))
		}
	}
	for _, l := range lines {
		folded := website.ICSFold(l)
		cal, logical := parseICS(t, "BEGIN:VCALENDAR\r\n"+folded+"END:VCALENDAR\r\n")
		if len(logical) != 3 || logical[1] != l || len(cal.props) != 1 {
			t.Fatalf("%q unfolded as %q", l, logical)
		}
	}
	for _, text := range []string{"plain", `a;b,c\d`, "two\nlines\r\nand\rmore", `\n is not a newline`, ";;,,\\\\", "tab\there", "bell\x07gone"} {
		got := icsUnescape(t, website.ICSText(text))
		want := strings.NewReplacer("\r\n", "\n", "\r", "\n", "\x07", "").Replace(text)
		if got != want {
			t.Errorf("%q read back as %q, want %q", text, got, want)
		}
	}
}
