// Command cmsctl is the ops CLI: create and list tenants, reset a user's password, set a passcode.
// It works against whatever AWS_ENDPOINT_URL points at (emulator, LocalStack) or real AWS, on the
// table named by TABLE_NAME.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"text/tabwriter"

	"github.com/aws/aws-sdk-go-v2/aws"
	awsconfig "github.com/aws/aws-sdk-go-v2/config"

	"github.com/campuscms/panel/shared/awsclient"
	"github.com/campuscms/panel/shared/awsclient/s3client"
	"github.com/campuscms/panel/shared/config"
	"github.com/campuscms/panel/shared/demo"
	"github.com/campuscms/panel/shared/store"
	"github.com/campuscms/panel/shared/tenants"
)

const usage = `usage:
  cmsctl tenant create --id ID --name NAME --admin USER --password PASS [--plan PLAN]
  cmsctl tenant list
  cmsctl tenant set-domains --id ID --domains www.example.org,example.org   (empty --domains clears them)
  cmsctl tenant seed-demo --id ID   (demo website content, media to MEDIA_BUCKET; running it again changes nothing)
  cmsctl user reset-password --tenant ID --username USER --password PASS
  cmsctl user set-passcode --tenant ID --username USER --passcode 123456
  cmsctl table create            (local emulator / first deploy without CDK only)
environment: TABLE_NAME (default cms), AWS_ENDPOINT_URL for an emulator, the usual AWS credentials`

func main() {
	if err := run(context.Background(), os.Args[1:], os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "cmsctl:", err)
		os.Exit(2)
	}
}

func run(ctx context.Context, args []string, out io.Writer) error {
	if len(args) < 2 {
		return errors.New(usage)
	}
	cfg, err := config.FromEnv()
	if err != nil {
		return err
	}
	awsCfg, err := loadAWS(ctx)
	if err != nil {
		return err
	}
	st := store.New(awsCfg, cfg.TableName)
	fs := flag.NewFlagSet(args[0]+" "+args[1], flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	id := fs.String("id", "", "tenant id")
	tenant := fs.String("tenant", "", "tenant id")
	name := fs.String("name", "", "institution name")
	admin := fs.String("admin", "", "admin username")
	username := fs.String("username", "", "username")
	password := fs.String("password", "", "password")
	passcode := fs.String("passcode", "", "6-digit passcode")
	plan := fs.String("plan", "", "billing plan id (default: the catalogue's first)")
	domains := fs.String("domains", "", "comma-separated website hosts")
	if err := fs.Parse(args[2:]); err != nil {
		return fmt.Errorf("%v\n%s", err, usage)
	}
	switch args[0] + " " + args[1] {
	case "tenant create":
		u, err := tenants.Create(ctx, st, tenants.NewTenant{ID: *id, Name: *name, AdminUsername: *admin, AdminPassword: *password, Plan: *plan})
		if err != nil {
			return err
		}
		fmt.Fprintf(out, "created tenant %s (%s) with admin %s (id %s)\n", *id, *name, u.Username, u.ID)
	case "tenant list":
		list, err := tenants.List(ctx, st)
		if err != nil {
			return err
		}
		tw := tabwriter.NewWriter(out, 0, 4, 2, ' ', 0)
		fmt.Fprintln(tw, "ID\tNAME\tPLAN\tCREATED")
		for _, t := range list {
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", t.ID, t.Name, t.PlanID, t.CreatedAt.Format("2006-01-02 15:04"))
		}
		return tw.Flush()
	case "tenant set-domains":
		hosts, err := tenants.SetDomains(ctx, st, *id, strings.Split(*domains, ","))
		if err != nil {
			return err
		}
		if len(hosts) == 0 {
			fmt.Fprintf(out, "tenant %s has no website domains now\n", *id)
			return nil
		}
		fmt.Fprintf(out, "tenant %s answers the public API for %s\n", *id, strings.Join(hosts, ", "))
	case "tenant seed-demo":
		sum, err := demo.Seed(ctx, st, s3client.New(awsCfg), cfg.MediaBucket, *id)
		if err != nil {
			return err
		}
		fmt.Fprintf(out, "tenant %s: %s\n", *id, sum)
	case "user reset-password":
		if err := tenants.ResetPassword(ctx, st, *tenant, *username, *password); err != nil {
			return err
		}
		fmt.Fprintf(out, "password of %s in %s reset; their sessions have ended\n", *username, *tenant)
	case "user set-passcode":
		if err := tenants.SetPasscode(ctx, st, *tenant, *username, *passcode); err != nil {
			return err
		}
		fmt.Fprintf(out, "passcode of %s in %s set\n", *username, *tenant)
	case "table create":
		if err := st.EnsureTable(ctx); err != nil {
			return err
		}
		fmt.Fprintf(out, "table %s ready\n", cfg.TableName)
	default:
		return errors.New(usage)
	}
	return nil
}

// loadAWS returns the SDK configuration: the emulator's when AWS_ENDPOINT_URL is set, otherwise
// the SDK's full provider chain, so an operator's profile or SSO login works (the Lambdas read
// only their environment; see awsclient.Load).
func loadAWS(ctx context.Context) (aws.Config, error) {
	if awsclient.Local() {
		return awsclient.Load(ctx)
	}
	cfg, err := awsconfig.LoadDefaultConfig(ctx)
	if err != nil {
		return aws.Config{}, fmt.Errorf("load AWS configuration: %w", err)
	}
	return cfg, nil
}
