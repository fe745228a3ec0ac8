package wpimport

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
	"text/template"
)

// benchItem is one item of the generated export.
type benchItem struct {
	ID, Parent, Order int
	Type, Title, Slug string
	Content, File     string
	Meta              [][2]string
	Terms             []Term
}

var benchTemplate = template.Must(template.New("wxr").Parse(`<?xml version="1.0" encoding="UTF-8" ?>
<rss version="2.0" xmlns:excerpt="http://wordpress.org/export/1.2/excerpt/" xmlns:content="http://purl.org/rss/1.0/modules/content/" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:wp="http://wordpress.org/export/1.2/">
<channel>
	<title>Generated School</title>
	<link>https://gen.example.org</link>
	<language>en-GB</language>
	<wp:wxr_version>1.2</wp:wxr_version>
	<wp:base_site_url>https://gen.example.org</wp:base_site_url>
	<wp:base_blog_url>https://gen.example.org</wp:base_blog_url>
	<wp:author><wp:author_id>1</wp:author_id><wp:author_login><![CDATA[admin]]></wp:author_login></wp:author>
	<wp:term><wp:term_id>9</wp:term_id><wp:term_taxonomy><![CDATA[nav_menu]]></wp:term_taxonomy><wp:term_slug><![CDATA[main]]></wp:term_slug><wp:term_name><![CDATA[Main]]></wp:term_name></wp:term>
{{range .}}	<item>
		<title>{{.Title}}</title>
		<link>https://gen.example.org/{{.Slug}}/</link>
		<dc:creator><![CDATA[admin]]></dc:creator>
		<content:encoded><![CDATA[{{.Content}}]]></content:encoded>
		<excerpt:encoded><![CDATA[]]></excerpt:encoded>
		<wp:post_id>{{.ID}}</wp:post_id>
		<wp:post_date><![CDATA[2024-02-03 10:00:00]]></wp:post_date>
		<wp:post_date_gmt><![CDATA[2024-02-03 10:00:00]]></wp:post_date_gmt>
		<wp:post_name><![CDATA[{{.Slug}}]]></wp:post_name>
		<wp:status><![CDATA[{{if eq .Type "attachment"}}inherit{{else}}publish{{end}}]]></wp:status>
		<wp:post_parent>{{.Parent}}</wp:post_parent>
		<wp:menu_order>{{.Order}}</wp:menu_order>
		<wp:post_type><![CDATA[{{.Type}}]]></wp:post_type>
		<wp:post_password><![CDATA[]]></wp:post_password>
{{if .File}}		<wp:attachment_url><![CDATA[https://gen.example.org/wp-content/uploads/{{.File}}]]></wp:attachment_url>
{{end}}{{range .Terms}}		<category domain="{{.Domain}}" nicename="{{.Slug}}"><![CDATA[{{.Name}}]]></category>
{{end}}{{range .Meta}}		<wp:postmeta><wp:meta_key><![CDATA[{{index . 0}}]]></wp:meta_key><wp:meta_value><![CDATA[{{index . 1}}]]></wp:meta_value></wp:postmeta>
{{end}}	</item>
{{end}}</channel>
</rss>
`))

// benchExport generates an export of about 2 kB per item: for every 15 items, 5 pages (every
// other one a child of the one before), 6 posts (classic and block content in turn, with images,
// links and a caption), 3 image attachments and 1 menu item. benchExport(300) is about 600 kB.
func benchExport(items int) []byte {
	var list []benchItem
	paragraph := "Pupils in every year group took part, and the results are below. " +
		"Thank you to the parents, carers and staff who helped on the day; we could not have done it without you. "
	for i := 0; len(list) < items; i++ {
		id := 100 + i
		switch k := i % 15; {
		case k < 5:
			parent := 0
			if k%2 == 1 {
				parent = id - 1
			}
			list = append(list, benchItem{ID: id, Type: "page", Parent: parent, Order: k, Title: fmt.Sprintf("Page %d", id), Slug: fmt.Sprintf("page-%d", id),
				Content: strings.Repeat(paragraph+"\n\n", 6) + fmt.Sprintf(`See <a href="https://gen.example.org/page-%d/">the page before</a>.`, id-1),
				Meta:    [][2]string{{"_yoast_wpseo_title", fmt.Sprintf("Page %d title", id)}, {"_yoast_wpseo_metadesc", "A page of the generated school."}}})
		case k < 11:
			content := strings.Repeat(paragraph+"\n\n", 4) +
				fmt.Sprintf(`[caption id="attachment_%d" width="300"]<img src="https://gen.example.org/wp-content/uploads/2024/02/photo-%d-300x200.jpg" alt="" width="300" height="200" /> A caption[/caption]`, id+1, id+1) +
				"\n\n" + paragraph
			if k%2 == 0 {
				content = strings.Repeat("<!-- wp:paragraph -->\n<p>"+paragraph+"</p>\n<!-- /wp:paragraph -->\n\n", 4) +
					fmt.Sprintf("<!-- wp:image {\"id\":%d} -->\n<figure class=\"wp-block-image\"><img src=\"https://gen.example.org/wp-content/uploads/2024/02/photo-%d-1024x683.jpg\" alt=\"\" class=\"wp-image-%d\"/></figure>\n<!-- /wp:image -->", id, id, id)
			}
			list = append(list, benchItem{ID: id, Type: "post", Title: fmt.Sprintf("News %d", id), Slug: fmt.Sprintf("news-%d", id), Content: content,
				Terms: []Term{{"category", "news", "News"}, {"post_tag", "sport", "Sport"}}, Meta: [][2]string{{"_thumbnail_id", fmt.Sprint(id + 1)}}})
		case k < 14:
			file := fmt.Sprintf("2024/02/photo-%d.jpg", id)
			list = append(list, benchItem{ID: id, Type: "attachment", Title: fmt.Sprintf("Photo %d", id), Slug: fmt.Sprintf("photo-%d", id), File: file,
				Meta: [][2]string{{"_wp_attached_file", file}, {"_wp_attachment_image_alt", "A photo of sports day"}}})
		default:
			list = append(list, benchItem{ID: id, Type: "nav_menu_item", Order: i / 15, Title: "", Slug: fmt.Sprint(id),
				Terms: []Term{{"nav_menu", "main", "Main"}},
				Meta: [][2]string{{"_menu_item_type", "post_type"}, {"_menu_item_object", "page"}, {"_menu_item_object_id", fmt.Sprint(id - 14)},
					{"_menu_item_menu_item_parent", "0"}, {"_menu_item_url", ""}}})
		}
	}
	var b bytes.Buffer
	if err := benchTemplate.Execute(&b, list); err != nil {
		panic(err)
	}
	return b.Bytes()
}

func TestBenchExport(t *testing.T) {
	data := benchExport(300)
	if len(data) < 500_000 || len(data) > 800_000 {
		t.Errorf("the generated export is %d bytes, want about 600 kB", len(data))
	}
	_, items := readAll(t, bytes.NewReader(data))
	counts := map[string]int{}
	for _, it := range items {
		counts[it.Type]++
	}
	if want := map[string]int{"page": 100, "post": 120, "attachment": 60, "nav_menu_item": 20}; fmt.Sprint(counts) != fmt.Sprint(want) {
		t.Errorf("counts = %v, want %v", counts, want)
	}
}

// BenchmarkRead reads the generated 600 kB export of 300 items.
func BenchmarkRead(b *testing.B) {
	data := benchExport(300)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		n := 0
		err := Read(bytes.NewReader(data), func(Site) error { return nil }, func(Item) error { n++; return nil })
		if err != nil || n != 300 {
			b.Fatalf("read %d items: %v", n, err)
		}
	}
}

// BenchmarkHTML converts every page and post of the generated export.
func BenchmarkHTML(b *testing.B) {
	var contents []string
	err := Read(bytes.NewReader(benchExport(300)), func(Site) error { return nil }, func(it Item) error {
		if it.Type == "page" || it.Type == "post" {
			contents = append(contents, it.Content)
		}
		return nil
	})
	if err != nil {
		b.Fatal(err)
	}
	c := testConvert(nil)
	b.ReportAllocs()
	for b.Loop() {
		for _, s := range contents {
			c.HTML(s)
		}
	}
}

// BenchmarkHTMLHostile converts a megabyte of each pathological input: each must take a time
// proportional to its length (well under a second), not to its square.
func BenchmarkHTMLHostile(b *testing.B) {
	inputs := map[string]string{
		"brackets":         strings.Repeat("[", 1<<20),
		"escaped brackets": strings.Repeat("[[a]]", 1<<20/5),
		"unclosed tags":    strings.Repeat("[a ", 1<<20/3),
		"open shortcodes":  strings.Repeat("[box]x", 1<<20/6),
		"nested":           nest(1<<20/16) + unnest(1<<20/16),
		"block openers":    strings.Repeat("<!-- wp:group --><div>", 1<<20/22) + strings.Repeat("<!-- /wp:paragraph -->", 1<<20/22),
		"lines":            strings.Repeat("a\n", 1<<20/2),
		"urls":             strings.Repeat("https://x.example/\n", 1<<20/19),
	}
	for name, in := range inputs {
		b.Run(name, func(b *testing.B) {
			b.SetBytes(int64(len(in)))
			c := testConvert(nil)
			for b.Loop() {
				c.HTML(in)
			}
		})
	}
}
