package demo

import (
	"github.com/campuscms/panel/shared/pages"
)

// introVideo is the about page's embedded video: Blender's "Big Buck Bunny" (CC BY 3.0), a
// public, long-lived YouTube upload, so the embed section shows a real player.
const introVideo = "https://www.youtube.com/embed/aqz-KE-bpKQ"

// item is one entry of a section's config, as the page editor sends it.
type item = map[string]any

// section is one page section as the page editor sends it in a page's pageSections.
func section(typeSlug, title, subTitle string, items ...item) map[string]any {
	return map[string]any{"pageSectionTypeId": sectionTypeID(typeSlug), "title": title, "subTitle": subTitle, "config": items}
}

// sectionTypeID is the id of the section type with the given slug (pages.SectionTypes).
func sectionTypeID(slug string) string {
	for _, t := range pages.SectionTypes {
		if t.Slug == slug {
			return t.ID
		}
	}
	panic("demo: unknown section type " + slug) // the slugs are the pages package's constants
}

// pageRecords are the demo's four pages with their sections: home and about hold the six
// section types between them; contact holds the contact form. Written after the contact form,
// which a form section must name.
func (sd *seeder) pageRecords() []record {
	name, refs := sd.tenant.Name, sd.refs
	formID := sd.id("custom-forms/contact")
	card := func(imageKey, title, text, cta, url string) item {
		return item{"image": refs[imageKey], "title": title, "description": text, "ctaText": cta, "ctaUrl": url}
	}
	home := map[string]any{
		"title": "Home", "slug": "home", "image": refs["hero-1"],
		"description": "Welcome to " + name + ": courses for school leavers, adults and professionals.",
		"content": "<h2>Welcome to " + name + "</h2><p>We are a community college where school leavers, adults returning to " +
			"study and people in work learn side by side. Our classes are small, our tutors know every student by name, " +
			"and most courses run in the daytime, the evening and at weekends.</p>" +
			"<ul><li>Four departments and more than sixty courses</li><li>Bursaries for fees and travel</li>" +
			"<li>Applications open all year</li></ul>",
		// No institution name in titles: the website adds " | {name}" to every one.
		"metaTitle":       "Courses for every stage of life",
		"metaDescription": "Full-time, part-time and evening courses in science, arts, business and computing at " + name + ".",
		"metaKeywords":    "college, courses, evening classes, adult education, apprenticeships",
		"ogTitle":         "Study at " + name, "ogDescription": "Small classes, big futures. Apply any time of year.",
		"ogImage": refs["hero-1"], "ogType": "website",
		"pageSections": []map[string]any{
			section(pages.TypeSlider, "Highlights", "",
				card("hero-1", "Welcome to "+name, "Small classes, big futures.", "About us", "/about"),
				card("hero-2", "Open Day is coming", "Tour the campus and meet our tutors.", "Events", "/events"),
				card("hero-3", "Evening and weekend classes", "Study around work and family.", "Apply", "/admissions")),
			section(pages.TypeCardRow, "Our departments", "Four departments, one friendly campus",
				card("card-science", "Science & Health", "Laboratories, nursing foundations and sports science.", "Meet the team", "/staff"),
				card("card-arts", "Arts & Humanities", "English, history, languages, art and design.", "Meet the team", "/staff"),
				card("card-business", "Business & Management", "Accounting, marketing and management, days or evenings.", "Meet the team", "/staff"),
				card("card-technology", "Computing & Technology", "From first steps to industry certificates.", "Meet the team", "/staff")),
			section(pages.TypeTextImage, "Why study with us", "",
				item{"image": refs["about"], "title": "Learning that fits your life", "textPosition": "RIGHT",
					"description": "Timetables built around work and family, support with fees and travel, and tutors who have worked in the fields they teach.",
					"ctaText":     "Read our story", "ctaUrl": "/about"}),
			section(pages.TypeBanner, "Apply today", "",
				card("banner-admissions", "Applications are open", "Most courses start in September and January.", "How to apply", "/admissions")),
		},
	}
	about := map[string]any{
		"title": "About Us", "slug": "about", "image": refs["about"],
		"description": "Our history, our mission and the people behind " + name + ".",
		"content": "<h2>Our story</h2><p>" + name + " opened its doors in 1968 with forty students and two classrooms above the " +
			"town library. Today more than four thousand people study with us each year, on our main campus and online.</p>" +
			"<h3>Our mission</h3><p>To open the door to learning for everyone in our community, at every stage of life.</p>" +
			"<blockquote>Education is not preparation for life; education is life itself.</blockquote>",
		"metaTitle":       "Our story",
		"metaDescription": "The history and mission of " + name + ", a community college since 1968.",
		"pageSections": []map[string]any{
			section(pages.TypeTextImage, "Our campus", "",
				item{"image": refs["about"], "title": "A campus in the heart of town", "textPosition": "LEFT",
					"description": "Five buildings around a green courtyard, ten minutes' walk from the station, with a library open late in exam weeks."}),
			section(pages.TypeEmbed, "A short film", "",
				item{"title": "A day at " + name, "description": "Three minutes of campus life.", "embedUrl": introVideo, "embedType": "YOUTUBE"}),
			section(pages.TypeForm, "Questions?", "Our team answers within two working days",
				item{"title": "Get in touch", "formId": formID}),
		},
	}
	admissions := map[string]any{
		"title": "Admissions", "slug": "admissions", "image": refs["banner-admissions"],
		"description": "How to apply, what it costs and when courses start.",
		"content": "<h2>How to apply</h2><ol><li>Choose a course from the prospectus.</li><li>Apply online or at Student " +
			"Services.</li><li>Meet your tutor for a short, friendly interview.</li><li>Enrol and collect your student card.</li></ol>" +
			"<p>Not sure which course suits you? Come to an <a href=\"/events\">Open Day</a> or <a href=\"/contact\">contact us</a>.</p>",
		"pageSections": []map[string]any{
			section(pages.TypeBanner, "Admissions", "",
				card("banner-admissions", "Start in September or January", "Applications are open all year.", "Download the prospectus", "/resources")),
			section(pages.TypeCardRow, "Three steps to enrol", "",
				card("card-science", "1. Choose", "Browse our courses and entry requirements.", "", ""),
				card("card-business", "2. Apply", "Apply online in ten minutes.", "", ""),
				card("card-technology", "3. Enrol", "Meet your tutor and start learning.", "", "")),
		},
	}
	contact := map[string]any{
		"title": "Contact", "slug": "contact",
		"description": "Visit us, call us or send us a message.",
		"content": "<h2>Visit us</h2><p>1 College Road, Riverside<br>Student Services is open Monday to Friday, 9am to 5pm.</p>" +
			"<p>Phone: +1 555 010 0100</p>",
		"pageSections": []map[string]any{
			section(pages.TypeForm, "Send us a message", "", item{"title": "Contact us", "formId": formID}),
		},
	}
	return []record{{"pages", "home", home}, {"pages", "about", about}, {"pages", "admissions", admissions}, {"pages", "contact", contact}}
}
