package pages

// SectionType is one kind of page section (SPEC §3): its slug, the name the editor shows and
// whether its config holds many items (a slider's slides) or at most one.
type SectionType struct {
	ID                          string `json:"id"`
	Slug                        string `json:"slug"`
	Name                        string `json:"name"`
	ConfigContainsMultipleItems bool   `json:"configContainsMultipleItems"`
}

// Section type slugs.
const (
	TypeSlider    = "slider"
	TypeCardRow   = "card-row"
	TypeBanner    = "banner"
	TypeTextImage = "text-image"
	TypeEmbed     = "embed"
	TypeForm      = "form"
)

// SectionTypes are the six types, fixed in code: the ids are stable, so stored sections and
// clients may hold them.
var SectionTypes = []SectionType{
	{ID: "1", Slug: TypeSlider, Name: "SLIDER", ConfigContainsMultipleItems: true},
	{ID: "2", Slug: TypeCardRow, Name: "CARD_ROW", ConfigContainsMultipleItems: true},
	{ID: "3", Slug: TypeBanner, Name: "BANNER"},
	{ID: "4", Slug: TypeTextImage, Name: "TEXT_IMAGE"},
	{ID: "5", Slug: TypeEmbed, Name: "EMBED"},
	{ID: "6", Slug: TypeForm, Name: "FORM"},
}

// typeByID returns the section type with the given id.
func typeByID(id string) (SectionType, bool) {
	for _, t := range SectionTypes {
		if t.ID == id {
			return t, true
		}
	}
	return SectionType{}, false
}
