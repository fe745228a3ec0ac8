package collections_test

import (
	"context"
	"net/http"
	"testing"

	"github.com/campuscms/panel/shared/ids"
	"github.com/campuscms/panel/shared/mediaref"
	"github.com/campuscms/panel/shared/store"
	"github.com/campuscms/panel/shared/testkit"
)

// libraryFile stores a media record of the tenant (as an upload's confirmation does) and returns
// its file reference.
func libraryFile(t *testing.T, tn testkit.Tenant, name string, size int) string {
	t.Helper()
	scope, err := store.NewScope(tn.ID)
	if err != nil {
		t.Fatal(err)
	}
	id := ids.New()
	ref := id + "/" + name
	k := mediaref.RecordKey(scope, ref)
	item := map[string]any{"PK": k.PK, "SK": k.SK, "id": id, "name": name, "fileUrl": ref, "fileSize": size, "mimeType": "image/png", "mediaType": "IMAGE"}
	if err := testkit.Deps(t).Store.Table.Put(item).Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	return ref
}

// TestFileSizeComesFromTheMediaLibrary: a record's file size is the size of the library file its
// file field names, worked out by the server on every write that sets the file; a size the
// client sends is ignored, so it is never asked for and cannot be wrong.
func TestFileSizeComesFromTheMediaLibrary(t *testing.T) {
	t.Parallel()
	tn := testkit.NewTenant(t)
	as := func(method, path string, body any) testkit.Response {
		return testkit.Call(t, call{Method: method, Path: path, Tenant: tn.ID, Token: tn.AdminToken, Body: body})
	}
	small, large := libraryFile(t, tn, "small.png", 2048), libraryFile(t, tn, "large.png", 3_500_000)
	for _, c := range []struct{ path, file string }{{"/photos", "image"}, {"/resources", "fileUrl"}} {
		t.Run(c.path, func(t *testing.T) {
			body := map[string]any{"caption": "Sports day", "title": "Prospectus", c.file: small}
			if c.path == "/photos" {
				delete(body, "title")
			} else {
				delete(body, "caption")
			}
			// No size sent: not required, taken from the file.
			res := as("POST", c.path, body)
			mustStatus(t, res, http.StatusCreated)
			if got := res.Get("result.fileSize"); got != float64(2048) {
				t.Fatalf("created with fileSize %v, want 2048", got)
			}
			id := res.Get("result.id").(string)

			// A size sent with the file is ignored.
			body[c.file], body["fileSize"] = large, 1
			res = as("POST", c.path, body)
			mustStatus(t, res, http.StatusCreated)
			if got := res.Get("result.fileSize"); got != float64(3_500_000) {
				t.Fatalf("client's size kept: %v", got)
			}

			// Another file, another size; a patch leaving the file alone keeps it.
			mustStatus(t, as("PATCH", c.path+"/"+id, map[string]any{c.file: large}), http.StatusOK)
			mustStatus(t, as("PATCH", c.path+"/"+id, map[string]any{"fileSize": 5, "status": false}), http.StatusOK)
			if got := as("GET", c.path+"/"+id, nil).Get("result.fileSize"); got != float64(3_500_000) {
				t.Fatalf("after patches fileSize %v, want 3500000", got)
			}
			// The file is required, since its size is (SPEC's File Size): none is refused, on
			// create and on edit, and the size stays. A file missing from the library has none.
			label := map[string]string{"image": "Image", "fileUrl": "File"}[c.file]
			noFile := map[string]any{}
			for k, v := range body {
				if k != c.file && k != "fileSize" {
					noFile[k] = v
				}
			}
			testkit.Expect(t, as("POST", c.path, noFile), http.StatusBadRequest, label+" is required!")
			testkit.Expect(t, as("PATCH", c.path+"/"+id, map[string]any{c.file: ""}), http.StatusBadRequest, label+" is required!")
			if got := as("GET", c.path+"/"+id, nil).Get("result.fileSize"); got != float64(3_500_000) {
				t.Fatalf("after a refused clearing fileSize %v", got)
			}
			mustStatus(t, as("PATCH", c.path+"/"+id, map[string]any{c.file: ids.New() + "/gone.png"}), http.StatusOK)
			if got := as("GET", c.path+"/"+id, nil).Get("result.fileSize"); got != nil {
				t.Fatalf("with a file not in the library fileSize %v", got)
			}
			// A size is a number or nothing: other values are refused as before.
			mustStatus(t, as("PATCH", c.path+"/"+id, map[string]any{"fileSize": "lots"}), http.StatusBadRequest)
		})
	}
}
