package bench

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
)

// dynaliteAdapter stands between the SDK and dynalite (AWS_ENDPOINT_URL_DYNAMODB) for
// bench/list.sh's second run. dynalite keeps each table and index as a sorted key-value store and
// answers a Query with a range read that stops at Limit, as DynamoDB reads a partition, so its
// list times show the data layout's cost; moto's Query loops over the whole table first. dynalite
// has no transactions and no TTL, which only the benchmark's set-up uses (creating the tenant,
// signing its admin in; the measured list calls make neither): the adapter applies a
// TransactWriteItems as its writes one by one, without atomicity, and acknowledges
// UpdateTimeToLive.
type dynaliteAdapter struct{ next http.RoundTripper }

const targetPrefix = "DynamoDB_20120810."

func (a dynaliteAdapter) RoundTrip(req *http.Request) (*http.Response, error) {
	switch req.Header.Get("X-Amz-Target") {
	case targetPrefix + "UpdateTimeToLive":
		var in struct{ TimeToLiveSpecification json.RawMessage }
		if err := readJSON(req, &in); err != nil {
			return nil, err
		}
		return answer(req, http.StatusOK, fmt.Sprintf(`{"TimeToLiveSpecification":%s}`, in.TimeToLiveSpecification)), nil
	case targetPrefix + "TransactWriteItems":
		var in struct{ TransactItems []map[string]map[string]any }
		if err := readJSON(req, &in); err != nil {
			return nil, err
		}
		for _, item := range in.TransactItems {
			for kind, op := range item {
				action := map[string]string{"Put": "PutItem", "Update": "UpdateItem", "Delete": "DeleteItem"}[kind]
				if action == "" {
					continue // ConditionCheck: nothing to write
				}
				delete(op, "ReturnValuesOnConditionCheckFailure")
				res, err := a.call(req, action, op)
				if err != nil || res.StatusCode != http.StatusOK {
					return res, err
				}
				res.Body.Close()
			}
		}
		return answer(req, http.StatusOK, `{}`), nil
	}
	return a.next.RoundTrip(req)
}

// call sends one single-item write to dynalite, with the original request's headers (dynalite
// does not check signatures).
func (a dynaliteAdapter) call(orig *http.Request, action string, body any) (*http.Response, error) {
	b, err := json.Marshal(body)
	if err != nil {
		return nil, err
	}
	req, err := http.NewRequestWithContext(orig.Context(), http.MethodPost, orig.URL.String(), bytes.NewReader(b))
	if err != nil {
		return nil, err
	}
	req.Header = orig.Header.Clone()
	req.Header.Set("X-Amz-Target", targetPrefix+action)
	req.Header.Del("Content-Length")
	return a.next.RoundTrip(req)
}

func readJSON(req *http.Request, v any) error {
	defer req.Body.Close()
	b, err := io.ReadAll(req.Body)
	if err != nil {
		return err
	}
	return json.Unmarshal(b, v)
}

func answer(req *http.Request, status int, body string) *http.Response {
	return &http.Response{StatusCode: status, Status: http.StatusText(status), Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1,
		Header: http.Header{"Content-Type": {"application/x-amz-json-1.0"}},
		Body:   io.NopCloser(strings.NewReader(body)), ContentLength: int64(len(body)), Request: req}
}
