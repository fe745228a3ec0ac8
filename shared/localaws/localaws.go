// Package localaws runs the local AWS emulator (moto_server: DynamoDB and S3 on one port) for the
// dev server and the tests, and prepares the buckets a local run needs.
package localaws

import (
	"bytes"
	"context"
	"embed"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Emulator is a running moto_server child process.
type Emulator struct {
	URL     string
	cmd     *exec.Cmd
	exited  chan struct{}
	scripts string
	keeps   bool
	log     *tail
}

// The wrapper (moto_serial.py) and what it imports, written to a fresh folder at each start.
//
//go:embed moto_serial.py moto_patches.py moto_snapshot.py
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
	if err == nil {
		err = exec.Command(python, "-c", "import moto.server, werkzeug").Run()
	}
	if err != nil {
		return nil, errors.New(`localaws: moto is not installed for python3; install it with: python3 -m pip install "moto[server]==5.2.1"`)
	}
	port := opts.Port
	if port == 0 {
		if port, err = freePort(); err != nil {
			return nil, err
		}
	} else if conn, err := net.DialTimeout("tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(port)), 200*time.Millisecond); err == nil {
		conn.Close()
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
	e := &Emulator{URL: fmt.Sprintf("http://127.0.0.1:%d", port), exited: make(chan struct{}), scripts: scripts, keeps: opts.DataDir != "", log: &tail{}}
	e.cmd = exec.Command(python, args...)
	e.cmd.Env = env
	// What the wrapper says (a snapshot loaded or kept, a moto version refused) goes to our stderr
	// when state is kept, and into the start error otherwise.
	e.cmd.Stderr = e.log
	if e.keeps {
		e.cmd.Stderr = io.MultiWriter(e.log, os.Stderr)
	}
	configureChild(e.cmd)
	if err := e.cmd.Start(); err != nil {
		os.RemoveAll(scripts)
		return nil, fmt.Errorf("localaws: start moto_server: %w", err)
	}
	go func() { _ = e.cmd.Wait(); close(e.exited) }()
	if err := e.waitReady(ctx); err != nil {
		e.Stop()
		return nil, err
	}
	return e, nil
}

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
	ctx, cancel := context.WithTimeout(ctx, 120*time.Second)
	defer cancel()
	for {
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, e.URL+"/moto-api/", nil)
		if resp, err := http.DefaultClient.Do(req); err == nil {
			resp.Body.Close()
			return nil
		}
		select {
		case <-e.exited:
			return fmt.Errorf("localaws: moto_server exited: %s", strings.TrimSpace(e.log.String()))
		case <-ctx.Done():
			return fmt.Errorf("localaws: moto_server at %s did not answer: %w", e.URL, ctx.Err())
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// Stop ends the emulator process; one that keeps its state is given time to write it.
func (e *Emulator) Stop() {
	if e == nil || e.cmd.Process == nil {
		return
	}
	defer os.RemoveAll(e.scripts)
	_ = e.cmd.Process.Signal(os.Interrupt)
	grace := 3 * time.Second
	if e.keeps {
		grace = 2 * time.Minute
	}
	select {
	case <-e.exited:
	case <-time.After(grace):
		_ = e.cmd.Process.Kill()
		<-e.exited
	}
}

// UseEndpoint points the AWS SDK of this process at the emulator.
func (e *Emulator) UseEndpoint() {
	os.Setenv("AWS_ENDPOINT_URL", e.URL)
	os.Setenv("AWS_REGION", "us-east-1")
	os.Setenv("AWS_ACCESS_KEY_ID", "test")
	os.Setenv("AWS_SECRET_ACCESS_KEY", "test")
	os.Setenv("AWS_EC2_METADATA_DISABLED", "true")
}

func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, fmt.Errorf("localaws: free port: %w", err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

// tail keeps the last 8 kB the wrapper wrote, for an error that says why it stopped.
type tail struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (t *tail) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf.Write(p)
	if over := t.buf.Len() - 8<<10; over > 0 {
		t.buf.Next(over)
	}
	return len(p), nil
}

func (t *tail) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.buf.String()
}

// ResidentBytes is the emulator process's resident memory (Linux: VmRSS), for benchmarks.
func (e *Emulator) ResidentBytes() (int64, error) {
	raw, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", e.cmd.Process.Pid))
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
