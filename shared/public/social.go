package public

// SocialLink is one of the institution's social media pages as the website's footer links it:
// the network's name (its field's label in the footer declaration) and the https address.
type SocialLink struct {
	Name string `json:"name"`
	URL  string `json:"url"`
}

// socialFields are the footer's social link fields, in the order the website lists them.
var socialFields = []string{"facebookUrl", "xUrl", "instagramUrl", "youtubeUrl", "linkedinUrl"}

// socialLinks are the footer's social links while its Show Social Links switch is on: each one
// given, named by its field's label; none while it is off.
func (r *Reader) socialLinks(footer Record) []SocialLink {
	out := []SocialLink{}
	if footer["showSocialLinks"] != true {
		return out
	}
	decl := r.reg["footer"]
	for _, name := range socialFields {
		f, declared := decl.Field(name)
		if url, _ := footer[name].(string); declared && url != "" {
			out = append(out, SocialLink{Name: f.Label, URL: url})
		}
	}
	return out
}
