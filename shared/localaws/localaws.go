// Package localaws runs the local AWS emulator (moto_server: DynamoDB and S3 on one port) for the
// dev server and the tests, and prepares the buckets a local run needs.
package localaws

import (
	"context"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/campuscms/panel/shared/localproc"
)

// Emulator is a running moto_server child process.
type Emulator struct {
	URL     string
	child   *localproc.Child
	scripts string
	keeps   bool
}

// The wrapper (moto_serial.py) and what it imports, written to a fresh folder at each start.
//
//go:embed moto_serial.py moto_http.py moto_patches.py moto_snapshot.py
var wrapper embed.FS

// Options say where the emulator listens and whether it keeps its state.
type Options struct {
	// Port on 127.0.0.1; 0 picks a free one.
	Port int
	// DataDir, when set, keeps the emulator's tables and buckets between runs: loaded at start,
	// written at Stop and every SnapshotEvery (default 2 minutes) while something changed.
	DataDir       string
	SnapshotEvery time.Duration
}

// Start launches the emulator on 127.0.0.1:port (0 picks a free one), keeping nothing.
func Start(ctx context.Context, port int) (*Emulator, error) {
	return StartWith(ctx, Options{Port: port})
}

// StartWith launches moto as moto_serial.py (moto's server, one request at a time, so that its
// transactions are isolated as DynamoDB's are, with moto_patches.py's fixes to its cost) and waits
// until it answers. It fails with an install hint when moto is not installed.
func StartWith(ctx context.Context, opts Options) (*Emulator, error) {
	python, err := exec.LookPath("python3")
	if err != nil {
		return nil, errNotInstalled
	}
	port := opts.Port
	if port == 0 {
		if port, err = localproc.FreePort(); err != nil {
			return nil, fmt.Errorf("localaws: %w", err)
		}
	} else if localproc.InUse(port) {
		return nil, fmt.Errorf("localaws: port %d is already in use (another dev server or emulator?); set MOTO_PORT to use another", port)
	}
	scripts, err := writeWrapper()
	if err != nil {
		return nil, err
	}
	args := []string{filepath.Join(scripts, "moto_serial.py"), "127.0.0.1", strconv.Itoa(port)}
	env := append(os.Environ(), "MOTO_DISABLE_GLOBAL_CORS=true")
	if opts.DataDir != "" {
		if err := os.MkdirAll(opts.DataDir, 0o755); err != nil {
			os.RemoveAll(scripts)
			return nil, fmt.Errorf("localaws: data folder: %w", err)
		}
		args = append(args, opts.DataDir)
		if opts.SnapshotEvery > 0 {
			env = append(env, fmt.Sprintf("SNAPSHOT_EVERY=%g", opts.SnapshotEvery.Seconds()))
		}
	}
	e := &Emulator{URL: fmt.Sprintf("http://127.0.0.1:%d", port), scripts: scripts, keeps: opts.DataDir != ""}
	cmd := exec.Command(python, args...)
	cmd.Env = env
	// What the wrapper says (a snapshot loaded or kept, a moto version refused) goes to our stderr
	// when state is kept, and into the start error otherwise.
	if e.keeps {
		cmd.Stderr = os.Stderr
	}
	if e.child, err = localproc.Start("localaws: moto_server", cmd); err != nil {
		os.RemoveAll(scripts)
		return nil, err
	}
	if err := e.waitReady(ctx); err != nil {
		e.Stop()
		if strings.Contains(e.child.Log(), "ModuleNotFoundError") {
			return nil, errNotInstalled
		}
		return nil, err
	}
	return e, nil
}

// errNotInstalled is Start's answer when python3 or moto is missing: the wrapper fails on its
// first import (checking with an import of our own first cost every test binary a second start
// of moto's imports, about 1.6 s of CPU).
var errNotInstalled = errors.New(`localaws: moto is not installed for python3; install it with: python3 -m pip install "moto[server]==5.2.1"`)

func writeWrapper() (string, error) {
	dir, err := os.MkdirTemp("", "localaws-")
	if err != nil {
		return "", fmt.Errorf("localaws: %w", err)
	}
	names, _ := fs.Glob(wrapper, "*.py")
	for _, name := range names {
		body, _ := wrapper.ReadFile(name)
		if err := os.WriteFile(filepath.Join(dir, name), body, 0o644); err != nil {
			os.RemoveAll(dir)
			return "", fmt.Errorf("localaws: %w", err)
		}
	}
	return dir, nil
}

func (e *Emulator) waitReady(ctx context.Context) error {
	return e.child.WaitReady(ctx, 120*time.Second, 50*time.Millisecond, func(ctx context.Context) bool {
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, e.URL+"/moto-api/", nil)
		resp, err := http.DefaultClient.Do(req)
		if err == nil {
			resp.Body.Close()
		}
		return err == nil
	})
}

// Stop ends the emulator process; one that keeps its state is given time to write it.
func (e *Emulator) Stop() {
	if e == nil || e.child == nil {
		return
	}
	defer os.RemoveAll(e.scripts)
	grace := 3 * time.Second
	if e.keeps {
		grace = 2 * time.Minute
	}
	e.child.Stop(grace)
}

// ResidentBytes is the emulator process's resident memory (Linux: VmRSS), for benchmarks.
func (e *Emulator) ResidentBytes() (int64, error) {
	raw, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", e.child.Pid()))
	if err != nil {
		return 0, fmt.Errorf("localaws: resident memory: %w", err)
	}
	for _, line := range strings.Split(string(raw), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			kb, err := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "kB")), 10, 64)
			return kb << 10, err
		}
	}
	return 0, errors.New("localaws: no VmRSS in /proc status")
}

// UseEndpoint points the AWS SDK of this process at the emulator.
func (e *Emulator) UseEndpoint() {
	os.Setenv("AWS_ENDPOINT_URL", e.URL)
	os.Setenv("AWS_REGION", "us-east-1")
	os.Setenv("AWS_ACCESS_KEY_ID", "test")
	os.Setenv("AWS_SECRET_ACCESS_KEY", "test")
	os.Setenv("AWS_EC2_METADATA_DISABLED", "true")
}
