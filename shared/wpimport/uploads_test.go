package wpimport

import "testing"

func TestUploadPath(t *testing.T) {
	cases := []struct {
		in, want string
		ok       bool
	}{
		{"https://example.org/wp-content/uploads/2008/06/canola2.jpg", "2008/06/canola2.jpg", true},
		{"http://example.org/wp-content/uploads/2008/06/canola2-300x200.jpg", "2008/06/canola2.jpg", true},
		{"https://example.org/wp-content/uploads/2008/06/canola2-1024x683.jpg?ver=2#top", "2008/06/canola2.jpg", true},
		{"https://example.org/wp-content/uploads/2024/03/concert-hall-scaled.jpg", "2024/03/concert-hall.jpg", true},
		{"https://example.org/wp-content/uploads/2024/03/photo-rotated.jpg", "2024/03/photo.jpg", true},
		{"https://example.org/wp-content/uploads/2024/03/photo-e1234567890.jpg", "2024/03/photo.jpg", true},
		{"https://example.org/wp-content/uploads/2024/03/photo-e1599999999123-300x200.jpg", "2024/03/photo.jpg", true},
		{"https://example.org/wp-content/uploads/2024/03/photo-scaled-150x150.webp", "2024/03/photo.webp", true},
		{"https://example.org/wp-content/uploads/2024/03/year-2024.pdf", "2024/03/year-2024.pdf", true},
		{"https://example.org/wp-content/uploads/2024/03/-300x200.jpg", "2024/03/-300x200.jpg", true},
		{"https://example.org/wp-content/uploads/school%20photo.jpg", "school photo.jpg", true},
		{"https://example.org/blog/wp-content/uploads/sites/3/2020/01/a.png", "sites/3/2020/01/a.png", true},
		{"https://i0.wp.com/example.org/wp-content/uploads/2020/01/a-640x480.png?resize=300", "2020/01/a.png", true},
		{"/wp-content/uploads/2020/01/a.png", "2020/01/a.png", true},
		{"wp-content/uploads/2020/01/a.png", "2020/01/a.png", true},
		{"https://example.org/wp-content/themes/x/logo.png", "", false},
		{"https://example.org/about/", "", false},
		{"https://example.org/wp-content/uploads/", "", false},
		{"https://example.org/wp-content/uploads/../../wp-config.php", "", false},
		{"https://example.org/wp-content/uploads/2020/%2e%2e/x.png", "", false},
		{"https://example.org/wp-content/uploads/2020//x.png", "", false},
		{`https://example.org/wp-content/uploads/2020/..\..\x.png`, "", false},
		{"", "", false},
	}
	for _, tc := range cases {
		got, ok := UploadPath(tc.in)
		if got != tc.want || ok != tc.ok {
			t.Errorf("UploadPath(%q) = %q, %v; want %q, %v", tc.in, got, ok, tc.want, tc.ok)
		}
	}
}

func TestSiteLocal(t *testing.T) {
	s := Site{Link: "https://riverside.example.org", BaseSiteURL: "http://riverside.example.org/wp", BaseBlogURL: "https://blog.riverside.example.org:443"}
	cases := []struct {
		in, want string
		ok       bool
	}{
		{"https://riverside.example.org/about-us/", "/about-us/", true},
		{"http://riverside.example.org/about-us/history/", "/about-us/history/", true},
		{"https://www.riverside.example.org/admissions/", "/admissions/", true},
		{"https://WWW.Riverside.Example.org:443/x", "/x", true},
		{"http://riverside.example.org:80/x", "/x", true},
		{"https://blog.riverside.example.org/2024/06/14/sports/", "/2024/06/14/sports/", true},
		{"https://riverside.example.org/?p=11", "/?p=11", true},
		{"https://riverside.example.org", "/", true},
		{"https://riverside.example.org/a%20b/#team", "/a%20b/", true},
		{"//riverside.example.org/x", "/x", true},
		{"/?page_id=2", "/?page_id=2", true},
		{"?page_id=2", "/?page_id=2", true},
		{"/about-us/", "/about-us/", true},
		{"about-us/", "", false},
		{"#top", "", false},
		{"https://archive.example.com/riverside", "", false},
		{"https://riverside.example.org.evil.example/x", "", false},
		{"https://evilriverside.example.org/x", "", false},
		{"https://riverside.example.org:8443/x", "", false},
		{"https://user@riverside.example.org/x", "", false},
		{"mailto:office@riverside.example.org", "", false},
		{"javascript:alert(1)", "", false},
		{"ftp://riverside.example.org/x", "", false},
		{"", "", false},
	}
	for _, tc := range cases {
		got, ok := s.Local(tc.in)
		if got != tc.want || ok != tc.ok {
			t.Errorf("Local(%q) = %q, %v; want %q, %v", tc.in, got, ok, tc.want, tc.ok)
		}
	}
	if _, ok := (Site{}).Local("https://riverside.example.org/x"); ok {
		t.Error("a site without addresses took an absolute URL for its own")
	}
}
