package localaws_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/campuscms/panel/shared/localaws"
)

// Without moto, Start says how to install it (python3 here is a stand-in that fails on its first
// import as the real one does).
func TestStartSaysHowToInstallMoto(t *testing.T) {
	dir := t.TempDir()
	stub := "#!/bin/sh\necho \"ModuleNotFoundError: No module named 'moto'\" >&2\nexit 1\n"
	if err := os.WriteFile(filepath.Join(dir, "python3"), []byte(stub), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", dir)
	_, err := localaws.Start(context.Background(), 0)
	if err == nil || !strings.Contains(err.Error(), `pip install "moto[server]==5.2.1"`) {
		t.Fatalf("Start without moto: %v", err)
	}
}
