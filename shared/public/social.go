package public

import "github.com/campuscms/panel/shared/collections"

// SocialLink is one of the institution's social media pages as the website's footer links it:
// the network's name (its field's label in the footer declaration) and the https address.
type SocialLink struct {
	Name string `json:"name"`
	URL  string `json:"url"`
}

// socialLinks are the footer's social links while its Show Social Links switch is on: each https
// address field of the footer's declaration that is given, in declared order, named by its label;
// none while it is off.
func (r *Reader) socialLinks(footer Record) []SocialLink {
	out := []SocialLink{}
	if footer["showSocialLinks"] != true {
		return out
	}
	for _, f := range r.reg["footer"].Fields {
		if url, _ := footer[f.Name].(string); f.Format == collections.FormatHTTPS && url != "" {
			out = append(out, SocialLink{Name: f.Label, URL: url})
		}
	}
	return out
}
