package media_test

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"image"
	"image/png"
	"io"
	"mime/multipart"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3"

	"github.com/campuscms/panel/shared/awsclient/s3client"
	"github.com/campuscms/panel/shared/media"
	"github.com/campuscms/panel/shared/testkit"
)

type call = testkit.Request

var expect = testkit.Expect

func pngBytes(t *testing.T) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := png.Encode(&buf, image.NewRGBA(image.Rect(0, 0, 8, 8))); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// ticket asks for an upload and returns the decoded answer.
type ticket struct {
	URL       string            `json:"url"`
	Fields    map[string]string `json:"fields"`
	Key       string            `json:"key"`
	ExpiresAt time.Time         `json:"expiresAt"`
}

func requestUpload(t *testing.T, tenant, token, name, mimeType string, size int) ticket {
	t.Helper()
	res := testkit.Call(t, call{Method: "POST", Path: "/media/uploads", Tenant: tenant, Token: token,
		Body: map[string]any{"name": name, "size": size, "mimeType": mimeType}})
	expect(t, res, 200, "")
	var out struct {
		Result ticket `json:"result"`
	}
	if err := json.Unmarshal(res.Raw, &out); err != nil {
		t.Fatal(err)
	}
	return out.Result
}

// post uploads body with the presigned form, as the browser does: fields first, the file last.
func post(t *testing.T, tk ticket, body []byte) {
	t.Helper()
	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	for k, v := range tk.Fields {
		_ = mw.WriteField(k, v)
	}
	fw, _ := mw.CreateFormFile("file", "upload")
	_, _ = fw.Write(body)
	_ = mw.Close()
	resp, err := http.Post(tk.URL, mw.FormDataContentType(), &buf)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode/100 != 2 {
		raw, _ := io.ReadAll(resp.Body)
		t.Fatalf("S3 POST: %d %s", resp.StatusCode, raw)
	}
}

func confirm(t *testing.T, tenant, token, key, name string) testkit.Response {
	t.Helper()
	return testkit.Call(t, call{Method: "POST", Path: "/media", Tenant: tenant, Token: token, Body: map[string]any{"key": key, "name": name}})
}

// upload runs the whole flow and returns the confirmation's answer.
func upload(t *testing.T, tn testkit.Tenant, name, mimeType string, body []byte) (ticket, testkit.Response) {
	t.Helper()
	tk := requestUpload(t, tn.ID, tn.AdminToken, name, mimeType, len(body))
	post(t, tk, body)
	return tk, confirm(t, tn.ID, tn.AdminToken, tk.Key, name)
}

// objectExists reports whether the media bucket holds key, and its Content-Type.
func objectExists(t *testing.T, key string) (bool, string) {
	t.Helper()
	d := testkit.Deps(t)
	out, err := s3client.New(d.AWS).HeadObject(context.Background(), &s3.HeadObjectInput{Bucket: aws.String(d.Config.MediaBucket), Key: aws.String(key)})
	if err != nil {
		return false, ""
	}
	return true, aws.ToString(out.ContentType)
}

func TestUploadConfirmListDelete(t *testing.T) {
	t.Parallel()
	tn := testkit.NewTenant(t)
	img := pngBytes(t)
	tk, res := upload(t, tn, "Campus photo.png", "image/png", img)
	expect(t, res, 201, media.MsgUploaded)
	id, _ := res.Get("result.id").(string)
	fileURL, _ := res.Get("result.fileUrl").(string)
	if fileURL != id+"/Campus-photo.png" || res.Get("result.mediaType") != "IMAGE" || res.Get("result.mimeType") != "image/png" ||
		res.Get("result.fileSize") != float64(len(img)) || res.Get("result.name") != "Campus photo.png" {
		t.Fatalf("record %s", res.Raw)
	}
	if ok, ct := objectExists(t, "media/"+tn.ID+"/"+fileURL); !ok || ct != "image/png" {
		t.Fatalf("served object exists=%v type=%q", ok, ct)
	}
	if ok, _ := objectExists(t, tk.Key); ok {
		t.Fatal("the upload object was kept after confirmation")
	}
	// Confirming twice is refused: the upload is gone.
	expect(t, confirm(t, tn.ID, tn.AdminToken, tk.Key, "again"), 404, "")

	list := testkit.Call(t, call{Method: "GET", Path: "/media", Tenant: tn.ID, Token: tn.AdminToken})
	expect(t, list, 200, "")
	if list.Get("totalCount") != float64(1) || list.Get("result.0.id") != id {
		t.Fatalf("list %s", list.Raw)
	}
	del := testkit.Call(t, call{Method: "DELETE", Path: "/media/" + id, Tenant: tn.ID, Token: tn.AdminToken})
	expect(t, del, 200, media.MsgDeleted)
	if ok, _ := objectExists(t, "media/"+tn.ID+"/"+fileURL); ok {
		t.Fatal("the object outlived its record")
	}
	expect(t, testkit.Call(t, call{Method: "DELETE", Path: "/media/" + id, Tenant: tn.ID, Token: tn.AdminToken}), 404, "")
	list = testkit.Call(t, call{Method: "GET", Path: "/media", Tenant: tn.ID, Token: tn.AdminToken})
	if list.Get("totalCount") != float64(0) || len(list.Get("result").([]any)) != 0 {
		t.Fatalf("list after delete %s", list.Raw)
	}
}

func TestUploadRequestPolicy(t *testing.T) {
	t.Parallel()
	tn := testkit.NewTenant(t)
	tk := requestUpload(t, tn.ID, tn.AdminToken, "../../Report 2024.pdf", "application/pdf", 1234)
	if !strings.HasPrefix(tk.Key, "uploads/"+tn.ID+"/") || !strings.HasSuffix(tk.Key, "/Report-2024.pdf") {
		t.Fatalf("key %q", tk.Key)
	}
	if d := time.Until(tk.ExpiresAt); d <= 0 || d > 15*time.Minute {
		t.Fatalf("expires in %v", d)
	}
	raw, err := base64.StdEncoding.DecodeString(tk.Fields["policy"])
	if err != nil {
		t.Fatal(err)
	}
	var doc struct{ Conditions []any }
	if err := json.Unmarshal(raw, &doc); err != nil {
		t.Fatal(err)
	}
	conds := fmt.Sprint(doc.Conditions)
	for _, want := range []string{
		"map[key:" + tk.Key + "]",
		"map[Content-Type:application/pdf]",
		"[content-length-range 1 5.24288e+06]",
		"map[bucket:" + testkit.Deps(t).Config.MediaBucket + "]",
	} {
		if !strings.Contains(conds, want) {
			t.Errorf("policy conditions %s lack %s", conds, want)
		}
	}
	if tk.Fields["key"] != tk.Key || tk.Fields["Content-Type"] != "application/pdf" || tk.Fields["x-amz-signature"] == "" {
		t.Fatalf("fields %v", tk.Fields)
	}
}

func TestUploadRequestValidation(t *testing.T) {
	t.Parallel()
	tn := testkit.NewTenant(t)
	cases := []struct {
		name    string
		body    any
		status  int
		message string
	}{
		{"5 MB is fine", map[string]any{"name": "a.png", "size": media.MaxSize, "mimeType": "image/png"}, 200, ""},
		{"5 MB + 1 byte", map[string]any{"name": "a.png", "size": media.MaxSize + 1, "mimeType": "image/png"}, 413, "Maximum file size is 5 MB"},
		{"6 MB", map[string]any{"name": "a.png", "size": 6 << 20, "mimeType": "image/png"}, 413, "Maximum file size is 5 MB"},
		{"empty file", map[string]any{"name": "a.png", "size": 0, "mimeType": "image/png"}, 400, "The file is empty."},
		{"no name", map[string]any{"name": " ", "size": 10, "mimeType": "image/png"}, 400, "Name is required!"},
		{"svg", map[string]any{"name": "a.svg", "size": 10, "mimeType": "image/svg+xml"}, 415, ""},
		{"no type becomes octet-stream", map[string]any{"name": "a.bin", "size": 10, "mimeType": ""}, 200, ""},
		{"unknown field", map[string]any{"name": "a.png", "size": 10, "mimeType": "image/png", "key": "media/x"}, 400, `Field "key" is not allowed here.`},
		{"size as string", `{"name":"a.png","size":"10","mimeType":"image/png"}`, 400, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res := testkit.Call(t, call{Method: "POST", Path: "/media/uploads", Tenant: tn.ID, Token: tn.AdminToken, Body: c.body})
			expect(t, res, c.status, c.message)
		})
	}
}

func TestConfirmRefusesAndDeletes(t *testing.T) {
	t.Parallel()
	tn := testkit.NewTenant(t)
	tooBig := append(pngBytes(t), make([]byte, media.MaxSize)...)
	cases := []struct {
		name, fileName, declared string
		declaredSize             int
		body                     []byte
		status                   int
		message                  string
	}{
		// The emulator ignores the policy's content-length-range: confirmation is the guard.
		{"5 MB + 1 byte uploaded despite the policy", "big.png", "image/png", 100, tooBig[:media.MaxSize+1], 413, "Maximum file size is 5 MB"},
		{"HTML declared as PNG", "x.png", "image/png", 0, []byte("<!DOCTYPE html><html><body><script>alert(document.domain)</script></body></html>"), 415, media.MsgMismatch},
		{"SVG declared as PNG", "x.png", "image/png", 0, []byte(`<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"></svg>`), 415, media.MsgMismatch},
		{"text declared as PDF", "x.pdf", "application/pdf", 0, []byte("not a pdf at all"), 415, media.MsgMismatch},
		{"JPEG declared as PNG", "x.png", "image/png", 0, []byte("\xff\xd8\xff\xe0\x00\x10JFIF\x00\x01\x01\x00\x00\x01\x00\x01\x00\x00"), 415, media.MsgMismatch},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			size := c.declaredSize
			if size == 0 {
				size = len(c.body)
			}
			tk := requestUpload(t, tn.ID, tn.AdminToken, c.fileName, c.declared, size)
			post(t, tk, c.body)
			expect(t, confirm(t, tn.ID, tn.AdminToken, tk.Key, c.fileName), c.status, c.message)
			if ok, _ := objectExists(t, tk.Key); ok {
				t.Fatal("the refused upload was not deleted")
			}
			// The refusal is final: the pending upload is gone too.
			expect(t, confirm(t, tn.ID, tn.AdminToken, tk.Key, c.fileName), 404, "")
		})
	}
	list := testkit.Call(t, call{Method: "GET", Path: "/media", Tenant: tn.ID, Token: tn.AdminToken})
	if list.Get("totalCount") != float64(0) {
		t.Fatalf("refused files were stored: %s", list.Raw)
	}
}

func TestConfirmOtherDocumentTypes(t *testing.T) {
	t.Parallel()
	tn := testkit.NewTenant(t)
	cases := []struct {
		name, file, mime, mediaType string
		body                        []byte
	}{
		{"pdf", "a.pdf", "application/pdf", "DOCUMENT", []byte("%PDF-1.4\n1 0 obj\n<<>>\nendobj\n%%EOF\n")},
		{"docx", "a.docx", "application/vnd.openxmlformats-officedocument.wordprocessingml.document", "DOCUMENT", []byte("PK\x03\x04\x14\x00\x06\x00\x08\x00\x00\x00!\x00")},
		{"text", "a.txt", "text/plain", "DOCUMENT", []byte("Opening hours\n")},
		{"zip", "a.zip", "application/zip", "OTHER", []byte("PK\x03\x04\x14\x00\x00\x00\x00\x00")},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, res := upload(t, tn, c.file, c.mime, c.body)
			expect(t, res, 201, "")
			if res.Get("result.mediaType") != c.mediaType {
				t.Fatalf("mediaType %v, want %s", res.Get("result.mediaType"), c.mediaType)
			}
		})
	}
}

func TestConfirmNeedsAnUploadedObject(t *testing.T) {
	t.Parallel()
	tn := testkit.NewTenant(t)
	tk := requestUpload(t, tn.ID, tn.AdminToken, "a.png", "image/png", 10)
	expect(t, confirm(t, tn.ID, tn.AdminToken, tk.Key, "a.png"), 400, "The file has not been uploaded yet.")
	// A well-formed key of the tenant that no upload request issued.
	expect(t, confirm(t, tn.ID, tn.AdminToken, "uploads/"+tn.ID+"/01ARZ3NDEKTSV4RRFFQ69G5FAV/a.png", "a.png"), 404, "")
	// The served key of a file is no upload key.
	expect(t, confirm(t, tn.ID, tn.AdminToken, "media/"+tn.ID+"/01ARZ3NDEKTSV4RRFFQ69G5FAV/a.png", "a.png"), 400, "File is not in this institution's media library.")
}

func TestCrossTenant(t *testing.T) {
	t.Parallel()
	a, b := testkit.NewTenant(t), testkit.NewTenant(t)
	tkA := requestUpload(t, a.ID, a.AdminToken, "a.png", "image/png", len(pngBytes(t)))
	post(t, tkA, pngBytes(t))
	// B cannot confirm A's upload, even knowing its key.
	expect(t, confirm(t, b.ID, b.AdminToken, tkA.Key, "stolen"), 400, "File is not in this institution's media library.")
	// B cannot confirm A's upload by rewriting the key into its own prefix: no such upload in B.
	expect(t, confirm(t, b.ID, b.AdminToken, strings.Replace(tkA.Key, a.ID, b.ID, 1), "stolen"), 404, "")
	if ok, _ := objectExists(t, tkA.Key); !ok {
		t.Fatal("B's attempts touched A's upload")
	}
	resA := confirm(t, a.ID, a.AdminToken, tkA.Key, "a.png")
	expect(t, resA, 201, "")
	idA := resA.Get("result.id").(string)

	cases := []struct {
		name   string
		req    call
		status int
	}{
		{"B lists: A's file is not there", call{Method: "GET", Path: "/media", Tenant: b.ID, Token: b.AdminToken}, 200},
		{"B deletes A's file", call{Method: "DELETE", Path: "/media/" + idA, Tenant: b.ID, Token: b.AdminToken}, 404},
		{"A's token on B", call{Method: "GET", Path: "/media", Tenant: b.ID, Token: a.AdminToken}, 401},
		{"A's token on B deletes", call{Method: "DELETE", Path: "/media/" + idA, Tenant: b.ID, Token: a.AdminToken}, 401},
		{"no token lists", call{Method: "GET", Path: "/media", Tenant: a.ID}, 401},
		{"no token uploads", call{Method: "POST", Path: "/media/uploads", Tenant: a.ID, Body: map[string]any{"name": "a.png", "size": 1, "mimeType": "image/png"}}, 401},
		{"no token confirms", call{Method: "POST", Path: "/media", Tenant: a.ID, Body: map[string]any{"key": tkA.Key}}, 401},
		{"no token deletes", call{Method: "DELETE", Path: "/media/" + idA, Tenant: a.ID}, 401},
		{"unknown tenant", call{Method: "GET", Path: "/media", Tenant: "no-such-tenant", Token: a.AdminToken}, 404},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res := testkit.Call(t, c.req)
			expect(t, res, c.status, "")
			if c.status == 200 && res.Get("totalCount") != float64(0) {
				t.Fatalf("B sees A's media: %s", res.Raw)
			}
		})
	}
	list := testkit.Call(t, call{Method: "GET", Path: "/media", Tenant: a.ID, Token: a.AdminToken})
	if list.Get("totalCount") != float64(1) {
		t.Fatalf("A's file was affected: %s", list.Raw)
	}
}

func TestListSearchAndPaging(t *testing.T) {
	t.Parallel()
	tn := testkit.NewTenant(t)
	for _, name := range []string{"Campus gate.png", "Library.png", "campus map.png", "Notes.txt"} {
		body, mt := pngBytes(t), "image/png"
		if strings.HasSuffix(name, ".txt") {
			body, mt = []byte("notes\n"), "text/plain"
		}
		_, res := upload(t, tn, name, mt, body)
		expect(t, res, 201, "")
	}
	names := func(res testkit.Response) string {
		var out []string
		for _, it := range res.Get("result").([]any) {
			out = append(out, it.(map[string]any)["name"].(string))
		}
		return strings.Join(out, ",")
	}
	cases := []struct {
		query, names string
		total        float64
		status       int
	}{
		{"", "Notes.txt,campus map.png,Library.png,Campus gate.png", 4, 200},
		{"?search=CAMPUS", "campus map.png,Campus gate.png", 2, 200}, // word search: newest first
		{"?search=map+camp", "campus map.png", 1, 200},
		{"?search=png&sort=name", "Campus gate.png,campus map.png,Library.png", 3, 200},
		{"?limit=5&page=1&sort=name&order=asc", "Campus gate.png,campus map.png,Library.png,Notes.txt", 4, 200},
		{"?mediaType=IMAGE&limit=5", "campus map.png,Library.png,Campus gate.png", 3, 200},
		{"?page=9", "", 4, 200},
		{"?page=0", "", 0, 400},
		{"?page=9223372036854775807", "", 0, 400},
		{"?limit=7", "", 0, 400},
		{"?sort=password", "", 0, 400},
	}
	for _, c := range cases {
		t.Run(c.query, func(t *testing.T) {
			res := testkit.Call(t, call{Method: "GET", Path: "/media" + c.query, Tenant: tn.ID, Token: tn.AdminToken})
			expect(t, res, c.status, "")
			if c.status != 200 {
				return
			}
			if got := names(res); got != c.names || res.Get("totalCount") != c.total {
				t.Fatalf("got %q (total %v), want %q (total %v)", got, res.Get("totalCount"), c.names, c.total)
			}
		})
	}
}

func TestConfirmExactlyFiveMB(t *testing.T) {
	t.Parallel()
	tn := testkit.NewTenant(t)
	body := append(pngBytes(t), make([]byte, media.MaxSize)...)[:media.MaxSize]
	_, res := upload(t, tn, "limit.png", "image/png", body)
	expect(t, res, 201, "")
	// Accepted; what is stored (and counted) is the image without the bytes after its end.
	if res.Get("result.fileSize") != float64(len(pngBytes(t))) {
		t.Fatalf("fileSize %v", res.Get("result.fileSize"))
	}
}
