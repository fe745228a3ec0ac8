package wpimport_test

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/campuscms/panel/shared/collections"
	"github.com/campuscms/panel/shared/testkit"
	"github.com/campuscms/panel/shared/wpimport"
)

// siteExport writes an export like a school's of some years: pages (a third of them children),
// posts with a few paragraphs, an image and a link each, attachments, and a menu.
func siteExport(pages, posts, attachments, menuItems int) []byte {
	var b bytes.Buffer
	b.WriteString(`<?xml version="1.0" encoding="UTF-8" ?>
<rss version="2.0" xmlns:excerpt="http://wordpress.org/export/1.2/excerpt/" xmlns:content="http://purl.org/rss/1.0/modules/content/" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:wp="http://wordpress.org/export/1.2/">
<channel><title>Bench College</title><link>https://bench.example.org</link><wp:wxr_version>1.2</wp:wxr_version>
<wp:base_site_url>https://bench.example.org</wp:base_site_url><wp:base_blog_url>https://bench.example.org</wp:base_blog_url>
<wp:term><wp:term_id>9</wp:term_id><wp:term_taxonomy>nav_menu</wp:term_taxonomy><wp:term_slug>main</wp:term_slug><wp:term_name><![CDATA[Main]]></wp:term_name></wp:term>
`)
	para := strings.Repeat("Students and staff met in the main hall to hear about the new timetable, the library hours and the clubs that start next week. ", 3)
	item := func(id int, typ, title, slug string, parent int, content, extra string) {
		fmt.Fprintf(&b, `<item><title>%s</title><link>https://bench.example.org/%s/</link><wp:post_id>%d</wp:post_id><wp:post_type>%s</wp:post_type>
<wp:status>%s</wp:status><wp:post_name>%s</wp:post_name><wp:post_parent>%d</wp:post_parent><wp:post_date_gmt>2023-09-01 08:00:00</wp:post_date_gmt>
<content:encoded><![CDATA[%s]]></content:encoded><excerpt:encoded><![CDATA[]]></excerpt:encoded>%s</item>
`, title, slug, id, typ, map[bool]string{true: "inherit", false: "publish"}[typ == "attachment"], slug, parent, content, extra)
	}
	for i := 0; i < attachments; i++ {
		id := 10000 + i
		item(id, "attachment", fmt.Sprintf("Photo %d", i), fmt.Sprintf("photo-%d", i), 0, "",
			fmt.Sprintf(`<wp:attachment_url>https://bench.example.org/wp-content/uploads/2023/09/photo-%d.jpg</wp:attachment_url>
<wp:postmeta><wp:meta_key>_wp_attached_file</wp:meta_key><wp:meta_value><![CDATA[2023/09/photo-%d.jpg]]></wp:meta_value></wp:postmeta>
<wp:postmeta><wp:meta_key>_wp_attachment_image_alt</wp:meta_key><wp:meta_value><![CDATA[Photo %d]]></wp:meta_value></wp:postmeta>`, i, i, i))
	}
	for i := 0; i < pages; i++ {
		parent := 0
		if i%3 == 2 {
			parent = 1 + i - 2
		}
		item(1+i, "page", fmt.Sprintf("Page %d", i), fmt.Sprintf("page-%d", i), parent,
			fmt.Sprintf("%s\n\n%s\n\n<a href=\"https://bench.example.org/page-%d/\">Next</a>", para, para, (i+1)%pages), "")
	}
	for i := 0; i < posts; i++ {
		item(5000+i, "post", fmt.Sprintf("News %d", i), fmt.Sprintf("news-%d", i), 0,
			fmt.Sprintf("%s\n\n<img src=\"https://bench.example.org/wp-content/uploads/2023/09/photo-%d-300x200.jpg\" alt=\"\">\n\n%s", para, i%max(attachments, 1), para),
			`<category domain="category" nicename="news"><![CDATA[News]]></category>`)
	}
	for i := 0; i < menuItems; i++ {
		parent := 0
		if i%4 != 0 {
			parent = 20000 + i - i%4
		}
		fmt.Fprintf(&b, `<item><title>Link %d</title><wp:post_id>%d</wp:post_id><wp:post_type>nav_menu_item</wp:post_type><wp:status>publish</wp:status><wp:menu_order>%d</wp:menu_order>
<category domain="nav_menu" nicename="main"><![CDATA[Main]]></category>
<wp:postmeta><wp:meta_key>_menu_item_type</wp:meta_key><wp:meta_value>post_type</wp:meta_value></wp:postmeta>
<wp:postmeta><wp:meta_key>_menu_item_object</wp:meta_key><wp:meta_value>page</wp:meta_value></wp:postmeta>
<wp:postmeta><wp:meta_key>_menu_item_object_id</wp:meta_key><wp:meta_value>%d</wp:meta_value></wp:postmeta>
<wp:postmeta><wp:meta_key>_menu_item_menu_item_parent</wp:meta_key><wp:meta_value>%d</wp:meta_value></wp:postmeta></item>
`, i, 20000+i, i+1, 1+i%max(pages, 1), parent)
	}
	b.WriteString("</channel></rss>\n")
	return b.Bytes()
}

// BenchmarkImportSite imports an export of about 600 kB (120 pages, 240 posts, 120 attachments,
// a menu of 40 items) without fetching files, into a fresh tenant each time: the whole run
// through the engine (every record's version, audit entry, words and counters) and a redirect
// per old address. It prints the export's size, the records written and the seconds it took.
//
//	go test -run '^$' -bench ImportSite -benchtime 1x ./shared/wpimport/
func BenchmarkImportSite(b *testing.B) {
	export := siteExport(120, 240, 120, 40)
	b.ReportMetric(float64(len(export))/1000, "export-kB")
	svc, err := collections.BuiltService(testkit.Deps(b))
	if err != nil {
		b.Fatal(err)
	}
	im := wpimport.NewRunner(testkit.Deps(b), svc, nil).Importer
	open := func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(export)), nil }
	var written int
	var took time.Duration
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		tn := testkit.NewTenant(b)
		testkit.SetPlan(b, tn.ID, "premium") // unlimited pages
		caller := testkit.AdminCaller(b, tn)
		b.StartTimer()
		start := time.Now()
		rep, err := im.Run(context.Background(), caller, open, wpimport.Options{})
		took += time.Since(start)
		if err != nil {
			b.Fatal(err)
		}
		if rep.Imported[wpimport.KindPage] != 120 || rep.Imported[wpimport.KindNotice] != 240 || len(rep.Failed.Items) > 0 {
			b.Fatalf("imported %v, failed %v", rep.Imported, rep.Failed.Items)
		}
		written = 0
		for _, n := range rep.Imported {
			written += n
		}
	}
	b.ReportMetric(float64(written), "records")
	b.ReportMetric(took.Seconds()/float64(b.N), "s/import")
}
