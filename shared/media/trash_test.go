package media_test

import (
	"fmt"
	"testing"

	"github.com/campuscms/panel/shared/awsclient"
	"github.com/campuscms/panel/shared/testkit"
)

// TestAFileGoesToTheTrashAndComesBack: a deleted file is no longer served (its object moves under
// trash/{tenant}/, which nothing serves) and leaves the library and its count; the trash lists
// it; restoring puts both back; deleting it forever removes the object. A delete whose record
// write fails after the move is simply tried again: nothing is lost on the way.
func TestAFileGoesToTheTrashAndComesBack(t *testing.T) {
	t.Parallel()
	tn := testkit.NewTenant(t)
	do := func(method, path string) testkit.Response {
		return testkit.Call(t, call{Method: method, Path: path, Tenant: tn.ID, Token: tn.AdminToken})
	}
	_, res := upload(t, tn, "Prospectus.png", "image/png", pngBytes(t))
	expect(t, res, 201, "")
	id, ref := res.Get("result.id").(string), res.Get("result.fileUrl").(string)
	served, trashed := "media/"+tn.ID+"/"+ref, "trash/"+tn.ID+"/"+ref

	// The record's write fails once after the file moved: the answer is an error, the record
	// stays in the library, and the next try finishes the job.
	undo := testkit.Faults(t).Inject(awsclient.Fault{Service: "dynamodb", Op: "TransactWriteItems", Match: tn.ID, Status: 500, Code: "InternalServerError"})
	if got := do("DELETE", "/media/"+id); got.Status < 500 {
		t.Fatalf("delete under a fault: %d %s", got.Status, got.Raw)
	}
	undo()
	if do("GET", "/media").Get("totalCount") != float64(1) {
		t.Fatal("the record left the library although its write failed")
	}
	expect(t, do("DELETE", "/media/"+id), 200, "")
	if ok, _ := objectExists(t, served); ok {
		t.Fatal("a file in the trash is still served")
	}
	if ok, _ := objectExists(t, trashed); !ok {
		t.Fatal("the file is not in the trash")
	}
	if do("GET", "/media").Get("totalCount") != float64(0) {
		t.Fatal("the library still counts the file")
	}
	list := do("GET", "/trash?kind=media")
	if list.Get("result.0.title") != "Prospectus.png" || list.Get("result.0.id") != id {
		t.Fatalf("trash: %s", list.Raw)
	}
	entry := fmt.Sprintf("/trash/media/%s/1", id)
	back := do("POST", entry+"/restore")
	expect(t, back, 200, "Media restored from the trash!")
	if ok, _ := objectExists(t, served); !ok || do("GET", "/media").Get("totalCount") != float64(1) {
		t.Fatalf("not back: served=%v %s", ok, back.Raw)
	}
	expect(t, do("POST", entry+"/restore"), 404, "")

	expect(t, do("DELETE", "/media/"+id), 200, "")
	expect(t, do("DELETE", entry), 200, "")
	for _, key := range []string{served, trashed} {
		if ok, _ := objectExists(t, key); ok {
			t.Fatalf("%s outlived Delete forever", key)
		}
	}
	expect(t, do("POST", entry+"/restore"), 404, "")
	// Every write of the file is in the audit log, its upload too (issue 39, item 5).
	log := do("GET", "/audit-log?collection=media")
	if fmt.Sprint(log.Get("result.0.action"), log.Get("result.1.action"), log.Get("result.2.action"), log.Get("result.3.action"),
		log.Get("result.4.action")) != "purgedeleterestoredeletecreate" || log.Get("result.4.recordId") != id || log.Get("result.4.username") != tn.AdminUsername {
		t.Fatalf("audit log: %s", log.Raw)
	}
}
