package demo

import (
	"fmt"
	"strings"
	"time"
)

// record is one collection record the seed writes: its collection, the seed's name for it (its
// id derives from both) and the body, as the panel would send it.
type record struct {
	collection, key string
	body            map[string]any
}

// album is a photo album and its photos' captions.
type album struct {
	key, title, description string
	photos                  []string
}

// albums are the demo's two albums; their photos are generated pictures (mediaFiles).
var albums = []album{
	{key: "campus-life", title: "Campus Life",
		description: "<p>A year on campus: the library at dusk, the courtyard in spring and the busy first week of term.</p>",
		photos:      []string{"The library at dusk", "Spring in the courtyard", "Freshers' week", "The new science wing", "Study space in the atrium", "The walk from the station"}},
	{key: "graduation", title: "Graduation Day",
		description: "<p>Our graduates, their families and their tutors celebrating on the lawn.</p>",
		photos:      []string{"Procession to the great hall", "Caps in the air", "Families on the lawn", "Prize winners with their tutors"}},
}

// event is an event a number of days from the seed's run (negative: past); length is the
// days it lasts after its first, 0 for one day.
type event struct {
	key, title, location, description string
	start, length                     int
}

// events are three events to come and three that are over, relative to the run.
var events = []event{
	{"open-day", "Open Day", "Main Hall", "Tour the campus, sit in on taster lessons and talk to our admissions team.", 9, 0},
	{"careers-fair", "Careers and Apprenticeships Fair", "Sports Hall", "Forty local employers and training providers, all under one roof.", 23, 0},
	{"spring-concert", "Spring Concert", "Great Hall", "Our choir, jazz band and music students perform.", 45, 1},
	{"science-fair", "Science Fair", "Science Wing", "Students showed their research projects to judges from the local university.", -12, 0},
	{"graduation", "Graduation Ceremony", "Great Hall", "Congratulations to the class of this year and their families.", -38, 0},
	{"art-exhibition", "Student Art Exhibition", "Gallery", "Paintings, prints and sculpture by our art and design students.", -70, 6},
}

type notice struct{ key, title, message string }

var notices = []notice{
	{"enrolment", "Enrolment for the new term is open", "Apply online or visit Student Services, Monday to Friday, 9am to 5pm."},
	{"library-hours", "Library opening hours extended", "During exam weeks the library stays open until 10pm on weekdays."},
	{"parking", "Car park resurfacing", "The north car park is closed for resurfacing this weekend; please use the south entrance."},
	{"bursaries", "Bursary applications", "Students on low incomes can apply for help with fees and travel. Ask Student Services."},
	{"wifi", "New campus Wi-Fi", "Connect to the new network with your student login; the old network closes at the end of the month."},
}

// department is a department and the staff members who work in it.
type department struct {
	key, name, hod, image, description string
	staff                              []person
}

type person struct{ name, role, bio string }

var departments = []department{
	{key: "science", name: "Science & Health", hod: "Dr. Amelia Hart", image: "card-science",
		description: "Biology, chemistry, nursing foundations and sports science, taught in our refurbished laboratories.",
		staff: []person{
			{"Dr. Amelia Hart", "Head of Science & Health", "Amelia is a biochemist who spent ten years in hospital research before joining the college."},
			{"Samuel Okafor", "Lecturer in Chemistry", "Samuel runs the Saturday chemistry club and the college's science fair."},
		}},
	{key: "arts", name: "Arts & Humanities", hod: "Prof. Lucia Moreno", image: "card-arts",
		description: "English, history, languages, art and design, with a gallery space for student exhibitions.",
		staff: []person{
			{"Prof. Lucia Moreno", "Head of Arts & Humanities", "Lucia teaches modern history and curates the end-of-year exhibition."},
			{"Hannah Lindqvist", "Lecturer in Art & Design", "Hannah is a printmaker whose work has been shown across the region."},
		}},
	{key: "business", name: "Business & Management", hod: "David Chen", image: "card-business",
		description: "Accounting, marketing and management courses, many of them in the evening for people in work.",
		staff: []person{
			{"David Chen", "Head of Business & Management", "David ran a logistics company for fifteen years and still mentors local start-ups."},
			{"Priya Raman", "Lecturer in Accounting", "Priya is a chartered accountant who leads the evening bookkeeping course."},
		}},
	{key: "technology", name: "Computing & Technology", hod: "Marcus Bell", image: "card-technology",
		description: "Programming, networking and digital skills, from first steps to industry certificates.",
		staff: []person{
			{"Marcus Bell", "Head of Computing & Technology", "Marcus is a software engineer who still writes code every day."},
			{"Grace Adeyemi", "Digital Skills Tutor", "Grace teaches the popular 'Computers for Everyone' course for adult beginners."},
		}},
}

// resource is a downloadable document and the text of its generated PDF.
type resource struct {
	key, title, fileName, category, description string
	lines                                       []string
}

// resources are the three downloads; the prospectus names the institution.
func resources(name string) []resource {
	return []resource{
		{key: "prospectus", title: "College Prospectus", fileName: "prospectus.pdf", category: "Admissions",
			description: "Every course we offer, with entry requirements, timetables and fees.",
			lines: []string{name, "", "Full-time, part-time and evening courses in four departments:",
				"Science & Health, Arts & Humanities, Business & Management, Computing & Technology.",
				"", "Applications are open all year. Visit the Admissions page to apply."}},
		{key: "calendar", title: "Academic Calendar", fileName: "academic-calendar.pdf", category: "Students",
			description: "Term dates, holidays, exam weeks and graduation.",
			lines: []string{"Autumn term: September to December", "Spring term: January to March",
				"Summer term: April to June", "", "Exam weeks close each term. Graduation is in July."}},
		{key: "fees", title: "Fees and Financial Support", fileName: "fees-and-support.pdf", category: "Admissions",
			description: "Course fees, payment plans, bursaries and how to apply for support.",
			lines: []string{"Course fees can be paid in full or in monthly instalments.",
				"Bursaries cover fees and travel for students on low incomes.",
				"Ask Student Services about a payment plan that suits you."}},
	}
}

// emailOf is a staff member's address: first.last@example.org, titles left out.
func emailOf(name string) string {
	var parts []string
	for _, w := range strings.Fields(name) {
		if w != "Dr." && w != "Prof." {
			parts = append(parts, strings.ToLower(w))
		}
	}
	return parts[0] + "." + parts[len(parts)-1] + "@example.org"
}

// day is the date n days from the seed's run, as the date fields store it (YYYY-MM-DD).
func (sd *seeder) day(n int) string { return sd.now.AddDate(0, 0, n).Format(time.DateOnly) }

// contentRecords are the collection records of the demo, in writing order: what a record
// references (a department, an album, a form) comes before it.
func (sd *seeder) contentRecords() []record {
	name, refs := sd.tenant.Name, sd.refs
	var out []record
	add := func(collection, key string, body map[string]any) {
		out = append(out, record{collection, key, body})
	}
	add("sliders", "welcome", map[string]any{"title": "Welcome to " + name, "subtitle": "Small classes, big futures: learning for every stage of life.",
		"ctaText": "Discover our college", "ctaUrl": "/about", "image": refs["hero-1"]})
	add("sliders", "open-day", map[string]any{"title": "Open Day is coming", "subtitle": "Tour the campus, meet our tutors and find the course that fits you.",
		"ctaText": "See upcoming events", "ctaUrl": "/events", "image": refs["hero-2"]})
	add("sliders", "evening", map[string]any{"title": "Evening and weekend classes", "subtitle": "Study around work and family with flexible timetables.",
		"ctaText": "How to apply", "ctaUrl": "/admissions", "image": refs["hero-3"]})

	for _, e := range events {
		body := map[string]any{"title": e.title, "startDate": sd.day(e.start), "location": e.location,
			"description": e.description, "image": refs["event-"+e.key]}
		if e.length > 0 {
			body["endDate"] = sd.day(e.start + e.length)
		}
		add("events", e.key, body)
	}

	for _, n := range notices {
		add("notices", n.key, map[string]any{"title": n.title, "message": n.message, "image": refs["notice-"+n.key]})
	}

	for _, a := range albums {
		add("albums", a.key, map[string]any{"title": a.title, "description": a.description, "image": refs[photoKey(a.key, 0)]})
	}
	for _, a := range albums {
		for i, caption := range a.photos {
			add("photos", photoKey(a.key, i), map[string]any{"albumId": sd.id("albums/" + a.key), "caption": caption,
				"image": refs[photoKey(a.key, i)], "fileSize": sd.sizes[photoKey(a.key, i)]})
		}
	}

	for _, d := range departments {
		add("departments", d.key, map[string]any{"name": d.name, "hod": d.hod, "image": refs[d.image], "description": d.description})
	}
	position := 0
	for _, d := range departments {
		for _, p := range d.staff {
			position++
			add("staff-members", fmt.Sprintf("staff-%d", position), map[string]any{"name": p.name, "role": p.role,
				"department": sd.id("departments/" + d.key), "bio": p.bio, "position": position,
				"email": emailOf(p.name), "phone": fmt.Sprintf("+1 555 010 %04d", 100+position),
				"image": refs[fmt.Sprintf("portrait-%d", 1+(position-1)%4)]})
		}
	}

	faqs := [][2]string{
		{"When can I apply?", "Applications are open all year. Most courses start in September and January; short courses start every month."},
		{"Do I need qualifications to enrol?", "Many of our courses have no entry requirements. Where a course has them, its page lists them."},
		{"How much do courses cost?", "Fees depend on the course and on your age and income. Download 'Fees and Financial Support' from Resources."},
		{"Can I study part time?", "Yes. Most courses run in the evening or at weekends as well as during the day."},
		{"Is there parking on campus?", "Yes, two car parks with free spaces for students. The bus stop is at the main gate."},
		{"Who do I talk to about extra support?", "Our Student Services team helps with learning support, wellbeing and money matters."},
	}
	for i, q := range faqs {
		add("faqs", fmt.Sprintf("faq-%d", i+1), map[string]any{"question": q[0], "answer": q[1], "position": i + 1})
	}

	for _, r := range resources(name) {
		add("resources", r.key, map[string]any{"title": r.title, "fileUrl": refs[r.key], "fileSize": sd.sizes[r.key],
			"description": r.description, "category": r.category})
	}

	testimonials := []struct{ key, name, designation, text string }{
		{"maria", "Maria Gonzalez", "Nursing Foundation graduate", "The tutors believed in me when I returned to study after twelve years. I start my nursing degree in the autumn."},
		{"james", "James Whitfield", "Evening accounting student", "I could keep my job and study two evenings a week. The course paid for itself with my promotion."},
		{"aisha", "Aisha Karim", "Parent of a first-year student", "My son found his confidence here. The staff know every student by name."},
	}
	for i, t := range testimonials {
		add("testimonials", t.key, map[string]any{"name": t.name, "designation": t.designation, "description": t.text,
			"image": refs[fmt.Sprintf("portrait-%d", i+1)]})
	}

	add("popups", "open-day", map[string]any{"title": "Open Day: book your place", "startDate": sd.day(0), "endDate": sd.day(30),
		"content": "Join us for campus tours, taster lessons and a chat with our tutors.", "linkUrl": "/events", "image": refs["card-events"]})
	return out
}

// contactForm is the contact form's body: three fields, as the form builder sends new ones.
func (sd *seeder) contactForm() map[string]any {
	fields := `[{"id":"NEW_name","label":"Name","fieldType":"text","required":true,"hint":"Your full name"},` +
		`{"id":"NEW_email","label":"Email","fieldType":"email","required":true,"hint":"We reply within two working days"},` +
		`{"id":"NEW_message","label":"Message","fieldType":"textarea","required":true,"hint":"How can we help?"}]`
	return map[string]any{"name": "Contact us", "description": "Questions about courses, fees or visiting? Send us a message.",
		"image": sd.refs["card-form"], "fields": fields}
}

// contactMessages are the two messages the contact form has received, so the dashboard's
// unchecked submissions and the submissions screen are not empty.
var contactMessages = []map[string]string{
	{"Name": "Daniel Brooks", "Email": "daniel.brooks@example.org", "Message": "Hello, is the evening accounting course still open for January? Thank you."},
	{"Name": "Fatima Ali", "Email": "fatima.ali@example.org", "Message": "Could I visit the art department before applying? I am free most afternoons."},
}

// newsletterAddresses are the demo's newsletter signups.
var newsletterAddresses = []string{"parent.one@example.org", "alumni.news@example.org", "future.student@example.org"}
