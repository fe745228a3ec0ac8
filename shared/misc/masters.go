package misc

// MasterItem is one entry of a master list.
type MasterItem struct {
	ID   string `json:"id"`
	Name string `json:"name"`
}

func list(names ...string) []MasterItem {
	out := make([]MasterItem, len(names))
	for i, n := range names {
		out[i] = MasterItem{ID: n, Name: n}
	}
	return out
}

// itemGroups are the inherited master lists of SPEC §9 and the transfer statuses of SPEC §4.
var itemGroups = map[string][]MasterItem{
	"productTypes": list("Seed", "Cannabis Oil", "Fresh Cannabis", "Flower", "Plant", "Edible Product", "Liquid Product", "Concentrate"),
	"reportingCategories": list("Seeds", "Plants", "Fresh Cannabis", "Dried Cannabis", "Edibles Solid", "Edibles Non-Solid",
		"Extracts Inhaled", "Extracts Ingested", "Extracts Other", "Topicals"),
	"weightUnits":      list("Each", "Gram"),
	"warehouseRooms":   list("Front Room", "Back Room"),
	"transferStatuses": list("PENDING", "SHIPPED", "TRANSFERRED", "COMPLETED"),
}
