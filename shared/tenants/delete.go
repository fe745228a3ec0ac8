package tenants

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	s3types "github.com/aws/aws-sdk-go-v2/service/s3/types"
	"github.com/guregu/dynamo/v2"

	"github.com/campuscms/panel/shared/collections"
	"github.com/campuscms/panel/shared/listing"
	"github.com/campuscms/panel/shared/mail"
	"github.com/campuscms/panel/shared/mediaref"
	"github.com/campuscms/panel/shared/store"
	"github.com/campuscms/panel/shared/visits"
)

// Deleting a tenant (a school that leaves, or asks for its erasure). Its items are found with
// Queries of the partitions the tenant owns, never a Scan (tenantPartitions): the fixed ones
// (its root, every collection and its word index, its markers, sessions, audit log...) and those
// named after its records (histories, page sections, form submissions, login counters), found
// from the records, the audit log (every kept version was written with an audit entry that
// lives as long), the trash index and the section index. The partitions named after others go
// first and those they are found from after, the tenant's details item last, so a run that
// stopped anywhere is finished by the next, and a finished one finds nothing to do.

// objectsAPI is what deleting needs of S3.
type objectsAPI interface {
	ListObjectsV2(ctx context.Context, in *s3.ListObjectsV2Input, opts ...func(*s3.Options)) (*s3.ListObjectsV2Output, error)
	DeleteObjects(ctx context.Context, in *s3.DeleteObjectsInput, opts ...func(*s3.Options)) (*s3.DeleteObjectsOutput, error)
}

// Footprint is what a tenant holds: its items by kind, its objects, its host lookups.
type Footprint struct {
	Items       map[string]int
	ItemCount   int
	Objects     int
	ObjectBytes int64
	Domains     []string
	// Exists is false when the tenant's details item is gone (nothing left, or never there).
	Exists bool
}

// Deletion deletes one tenant's items, objects and host lookups.
type Deletion struct {
	St     *store.Store
	S3     objectsAPI
	Bucket string
	Tenant string
	// AfterBatch, when set, runs after each batch of 25 item deletes (tests inject a crash).
	AfterBatch func(batch int) error
}

// kindOf names an item's kind from its key: the first part under the tenant ("users",
// "SESSION", "COUNT" for counters, "TENANT" for its details).
func kindOf(tenantKey string, pk, sk string) string {
	if pk == tenantKey {
		k, _, _ := strings.Cut(sk, "#")
		return "root:" + k
	}
	k, _, _ := strings.Cut(strings.TrimPrefix(pk, tenantKey+"#"), "#")
	return k
}

// queryTenant calls each for every key of the tenant's items, a page of at most 1000 keys at a
// time: one paged Query of each of its partitions (tenantPartitions), the derived ones first.
func (d Deletion) queryTenant(ctx context.Context, scope store.Scope, each func([]store.Key) error) error {
	parts, err := tenantPartitions(ctx, d.St, scope)
	if err != nil {
		return err
	}
	for _, pk := range parts {
		var start dynamo.PagingKey
		for {
			var page []store.Key
			q := d.St.Table.Get("PK", pk).Project("PK", "SK").Consistent(true).Limit(1000)
			if start != nil {
				q.StartFrom(start)
			}
			next, err := q.AllWithLastEvaluatedKey(ctx, &page)
			if err != nil {
				return store.Wrap("query tenant "+scope.Tenant(), err)
			}
			if len(page) > 0 {
				if err := each(page); err != nil {
					return err
				}
			}
			if next == nil {
				break
			}
			start = next
		}
	}
	return nil
}

// fixedPartitions are the partitions every tenant may have whatever its records: its root
// (details, counters, settings), markers, sessions, limits, the audit log, the due index, its
// website's page views, its mail, and every collection's records and word index (media and pending uploads included).
func fixedPartitions(scope store.Scope) ([]string, error) {
	reg, err := collections.Load()
	if err != nil {
		return nil, err
	}
	var out []string
	for _, p := range []string{"DUE", "USERNAME", "SESSION", "CHALLENGE", "PAGESLUG", "REDIRECT", "RATE", "PROBE", "PREVIEW",
		"NEWSLETTER_EMAIL", "NEWSLETTER_TOKEN", "LOGIN-AUDIT", "AUDIT", "RESET", visits.Partition} {
		out = append(out, scope.Partition(p))
	}
	out = append(out, mail.Partitions(scope)...) // its outbox, failed mail and suppression list
	kinds := append(reg.Keys(), mediaref.RecordPartition, "upload")
	for _, k := range kinds {
		out = append(out, scope.Collection(k), listing.WordPartition(scope.Collection(k)))
	}
	return out, nil
}

// tenantPartitions lists the tenant's partitions, each once: first those named after its records
// and users (found from the fixed ones, the trash index and the section index), then the fixed
// ones, the root last. Login counters of names that are no user and that the audit log did not
// record (past its budget for unknown names) are not found; they expire within their window.
func tenantPartitions(ctx context.Context, st *store.Store, scope store.Scope) ([]string, error) {
	fixed, err := fixedPartitions(scope)
	if err != nil {
		return nil, err
	}
	derived := map[string]bool{}
	record := func(kind, id string) {
		if kind == "" || id == "" {
			return
		}
		derived[scope.Partition("HIST", kind, id)] = true
		switch kind {
		case "pages":
			derived[scope.Partition("PAGE", id)] = true
		case "custom-forms":
			sub := scope.Partition("FORM", id, "SUB")
			derived[scope.Partition("FORM", id)], derived[sub], derived[listing.WordPartition(sub)] = true, true, true
		}
	}
	login := func(username string) {
		if u := strings.ToLower(strings.TrimSpace(username)); u != "" {
			derived[scope.Partition("LOGIN", u)] = true
		}
	}
	reg, err := collections.Load()
	if err != nil {
		return nil, err
	}
	for _, k := range append(reg.Keys(), mediaref.RecordPartition) {
		err := eachQueried(ctx, st.Table.Get("PK", scope.Collection(k)).Project("SK").Consistent(true), func(it map[string]any) {
			id, _ := it["SK"].(string)
			record(k, id)
		})
		if err != nil {
			return nil, err
		}
	}
	// The audit log names every record a kept version belongs to, and the users who signed in.
	err = eachQueried(ctx, st.Table.Get("PK", scope.Partition("AUDIT")).Project("collection", "recordId", "username").Consistent(true), func(it map[string]any) {
		kind, _ := it["collection"].(string)
		id, _ := it["recordId"].(string)
		record(kind, id)
		name, _ := it["username"].(string)
		login(name)
	})
	if err != nil {
		return nil, err
	}
	err = eachQueried(ctx, st.Table.Get("PK", scope.Partition("USERNAME")).Project("SK").Consistent(true), func(it map[string]any) {
		name, _ := it["SK"].(string)
		login(name)
	})
	if err != nil {
		return nil, err
	}
	// The trash (deleted records' kept states) and the section index (every page's sections).
	err = eachQueried(ctx, st.Table.Get("GSI1PK", scope.Partition("TRASH")).Index("GSI1").Project("PK", "kind", "recordId"), func(it map[string]any) {
		pk, _ := it["PK"].(string)
		derived[pk] = true
		kind, _ := it["kind"].(string)
		id, _ := it["recordId"].(string)
		record(kind, id)
	})
	if err != nil {
		return nil, err
	}
	err = eachQueried(ctx, st.Table.Get("GSI1PK", scope.Partition("PAGESECTION")).Index("GSI1").Project("PK"), func(it map[string]any) {
		pk, _ := it["PK"].(string)
		derived[pk] = true
	})
	if err != nil {
		return nil, err
	}
	out := make([]string, 0, len(derived)+len(fixed)+1)
	for pk := range derived {
		if pk == scope.Root() || !strings.HasPrefix(pk, scope.Root()+"#") {
			continue // never another tenant's, whatever an item holds
		}
		out = append(out, pk)
	}
	sort.Strings(out)
	for _, pk := range fixed {
		if !derived[pk] {
			out = append(out, pk)
		}
	}
	return append(out, scope.Root()), nil
}

// eachQueried runs each on every item a Query answers, page by page (an index Query cannot be
// strongly consistent: the base-table ones are made so by their callers).
func eachQueried(ctx context.Context, q *dynamo.Query, each func(map[string]any)) error {
	it := q.Iter()
	var item map[string]any
	for it.Next(ctx, &item) {
		each(item)
		item = nil
	}
	return store.Wrap("list tenant partitions", it.Err())
}

// eachObject calls each for every page of the tenant's objects under its prefixes.
func (d Deletion) eachObject(ctx context.Context, scope store.Scope, each func([]s3types.Object) error) error {
	for _, prefix := range mediaref.TenantPrefixes(scope) {
		p := s3.NewListObjectsV2Paginator(d.S3, &s3.ListObjectsV2Input{Bucket: aws.String(d.Bucket), Prefix: aws.String(prefix)})
		for p.HasMorePages() {
			out, err := p.NextPage(ctx)
			if err != nil {
				return fmt.Errorf("tenants: list %s: %w", prefix, err)
			}
			if len(out.Contents) > 0 {
				if err := each(out.Contents); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// Survey reads what the tenant holds (the dry run).
func (d Deletion) Survey(ctx context.Context) (Footprint, error) {
	scope, err := store.NewScope(d.Tenant)
	if err != nil {
		return Footprint{}, err
	}
	fp := Footprint{Items: map[string]int{}}
	t, err := d.St.GetTenant(ctx, scope)
	switch {
	case err == nil:
		fp.Exists, fp.Domains = true, t.Domains
	case !store.IsNotFound(err):
		return fp, err
	}
	err = d.queryTenant(ctx, scope, func(keys []store.Key) error {
		for _, k := range keys {
			fp.Items[kindOf(scope.Root(), k.PK, k.SK)]++
			fp.ItemCount++
		}
		return nil
	})
	if err != nil {
		return fp, err
	}
	err = d.eachObject(ctx, scope, func(objs []s3types.Object) error {
		for _, o := range objs {
			fp.Objects++
			fp.ObjectBytes += aws.ToInt64(o.Size)
		}
		return nil
	})
	return fp, err
}

// Run deletes everything of the tenant: its objects, its host lookups, its items in batches, and
// its details item last. Safe to run again after a failure, and when nothing is left.
func (d Deletion) Run(ctx context.Context) (Footprint, error) {
	scope, err := store.NewScope(d.Tenant)
	if err != nil {
		return Footprint{}, err
	}
	done := Footprint{Items: map[string]int{}}
	t, err := d.St.GetTenant(ctx, scope)
	if err != nil && !store.IsNotFound(err) {
		return done, err
	}
	if err == nil {
		// Stop the panel and the website first: nothing may write while it goes.
		if _, err := SetSuspended(ctx, d.St, d.Tenant, true); err != nil {
			return done, err
		}
		done.Exists, done.Domains = true, t.Domains
	}
	err = d.eachObject(ctx, scope, func(objs []s3types.Object) error {
		ids := make([]s3types.ObjectIdentifier, len(objs))
		for i, o := range objs {
			ids[i] = s3types.ObjectIdentifier{Key: o.Key}
			done.Objects++
			done.ObjectBytes += aws.ToInt64(o.Size)
		}
		out, err := d.S3.DeleteObjects(ctx, &s3.DeleteObjectsInput{Bucket: aws.String(d.Bucket), Delete: &s3types.Delete{Objects: ids, Quiet: aws.Bool(true)}})
		if err != nil {
			return fmt.Errorf("tenants: delete objects: %w", err)
		}
		if len(out.Errors) > 0 {
			return fmt.Errorf("tenants: delete objects: %s: %s", aws.ToString(out.Errors[0].Key), aws.ToString(out.Errors[0].Message))
		}
		return nil
	})
	if err != nil {
		return done, err
	}
	for _, host := range t.Domains {
		k := store.DomainKey(host)
		// Only the lookup that still names this tenant (a host another tenant took since stays).
		err := d.St.Table.Delete("PK", k.PK).Range("SK", k.SK).If("attribute_not_exists(PK) OR tenantId = ?", d.Tenant).Run(ctx)
		if err != nil && !dynamo.IsCondCheckFailed(err) {
			return done, store.Wrap("delete host lookup "+host, err)
		}
	}
	tenantKey := store.Key{PK: scope.Root(), SK: store.SKTenant}
	batch := 0
	err = d.queryTenant(ctx, scope, func(keys []store.Key) error {
		for start := 0; start < len(keys); start += 25 {
			var dk []dynamo.Keyed
			for _, k := range keys[start:min(start+25, len(keys))] {
				if k == tenantKey {
					continue
				}
				dk = append(dk, dynamo.Keys{k.PK, k.SK})
				done.Items[kindOf(scope.Root(), k.PK, k.SK)]++
				done.ItemCount++
			}
			if len(dk) == 0 {
				continue
			}
			if _, err := d.St.Table.Batch("PK", "SK").Write().Delete(dk...).Run(ctx); err != nil {
				return store.Wrap("delete items", err)
			}
			batch++
			if d.AfterBatch != nil {
				if err := d.AfterBatch(batch); err != nil {
					return err
				}
			}
		}
		return nil
	})
	if err != nil {
		return done, err
	}
	if done.Exists {
		if err := d.St.Table.Delete("PK", tenantKey.PK).Range("SK", tenantKey.SK).Run(ctx); err != nil {
			return done, store.Wrap("delete tenant", err)
		}
		done.Items["root:TENANT"]++
		done.ItemCount++
	}
	return done, nil
}

// Summary is a footprint as lines: items by kind, objects, domains.
func (fp Footprint) Summary() string {
	kinds := make([]string, 0, len(fp.Items))
	for k := range fp.Items {
		kinds = append(kinds, k)
	}
	sort.Strings(kinds)
	var b strings.Builder
	fmt.Fprintf(&b, "items: %d\n", fp.ItemCount)
	for _, k := range kinds {
		fmt.Fprintf(&b, "  %-28s %d\n", k, fp.Items[k])
	}
	fmt.Fprintf(&b, "media objects: %d (%d bytes)\n", fp.Objects, fp.ObjectBytes)
	if len(fp.Domains) > 0 {
		fmt.Fprintf(&b, "host lookups: %s\n", strings.Join(fp.Domains, ", "))
	}
	return b.String()
}

// ErrConfirm refuses a deletion whose --confirm does not repeat the tenant id.
var ErrConfirm = errors.New("tenants: --confirm must repeat the tenant id")
