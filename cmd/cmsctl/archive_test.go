package main

import (
	"path/filepath"
	"testing"

	"github.com/campuscms/panel/shared/testkit"
)

func TestExportImportCommands(t *testing.T) {
	tn := testkit.NewTenant(t)
	file := filepath.Join(t.TempDir(), "x.tar")
	copyID := tn.ID + "-copy"
	runSteps(t, []step{
		{"export", "tenant export --id " + tn.ID + " --out " + file, "", "exported to " + file},
		{"export unknown", "tenant export --id nobody-here --out " + file + "2", "not found", ""},
		{"import", "tenant import --archive " + file + " --id " + copyID, "", "imported from " + tn.ID},
		{"import again", "tenant import --archive " + file + " --id " + copyID, "exists already", ""},
		{"import without id", "tenant import --archive " + file, "usage:", ""},
	})
	testkit.Login(t, copyID, tn.AdminUsername, tn.AdminPassword)
}
