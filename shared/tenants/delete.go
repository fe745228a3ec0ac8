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

	"github.com/campuscms/panel/shared/mediaref"
	"github.com/campuscms/panel/shared/store"
)

// Deleting a tenant (a school that leaves, or asks for its erasure). Its items are found by one
// paged Scan filtered on the tenant's key prefix: every key starts with T#{tenant}, but the
// partitions under it are not all enumerable (login windows per username, word indexes per
// collection, ...). A Scan reads the whole table, which no request may do; an operator deleting a
// tenant may, once (README "Tenant lifecycle"). The tenant's details item goes last, so a run that
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

// scanTenant calls each for every key of the tenant's items, page by page.
func (d Deletion) scanTenant(ctx context.Context, scope store.Scope, each func([]store.Key) error) error {
	root := scope.Root()
	it := d.St.Table.Scan().Filter("$ = ? OR begins_with($, ?)", "PK", root, "PK", root+"#").Project("PK", "SK").Iter()
	var page []store.Key
	var k store.Key
	for it.Next(ctx, &k) {
		page = append(page, k)
		if len(page) == 1000 {
			if err := each(page); err != nil {
				return err
			}
			page = nil
		}
	}
	if err := it.Err(); err != nil {
		return store.Wrap("scan tenant "+scope.Tenant(), err)
	}
	if len(page) > 0 {
		return each(page)
	}
	return nil
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
	err = d.scanTenant(ctx, scope, func(keys []store.Key) error {
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
	err = d.scanTenant(ctx, scope, func(keys []store.Key) error {
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
