// Package localaws runs the local AWS emulator (moto_server: DynamoDB and S3 on one port) for the
// dev server and the tests, and prepares the buckets a local run needs.
package localaws

import (
	"context"
	_ "embed"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"time"
)

// Emulator is a running moto_server child process.
type Emulator struct {
	URL string
	cmd *exec.Cmd
}

//go:embed moto_serial.py
var motoSerial string

// Start launches moto (as moto_serial.py: moto's server, one request at a time, so that its
// transactions are isolated as DynamoDB's are) on 127.0.0.1:port (port 0 picks a free one) and
// waits until it answers. It fails with an install hint when moto is not installed.
func Start(ctx context.Context, port int) (*Emulator, error) {
	python, err := exec.LookPath("python3")
	if err == nil {
		err = exec.Command(python, "-c", "import moto.server, werkzeug").Run()
	}
	if err != nil {
		return nil, errors.New(`localaws: moto is not installed for python3; install it with: python3 -m pip install "moto[server]"`)
	}
	if port == 0 {
		if port, err = freePort(); err != nil {
			return nil, err
		}
	} else if conn, err := net.DialTimeout("tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(port)), 200*time.Millisecond); err == nil {
		conn.Close()
		return nil, fmt.Errorf("localaws: port %d is already in use (another dev server or emulator?); set MOTO_PORT to use another", port)
	}
	// The script arrives on stdin ("python3 -"), so process listings show a short command line.
	cmd := exec.Command(python, "-", "127.0.0.1", strconv.Itoa(port))
	cmd.Stdin = strings.NewReader(motoSerial)
	cmd.Env = append(os.Environ(), "MOTO_DISABLE_GLOBAL_CORS=true")
	cmd.Stdout, cmd.Stderr = nil, nil
	configureChild(cmd)
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("localaws: start moto_server: %w", err)
	}
	e := &Emulator{URL: fmt.Sprintf("http://127.0.0.1:%d", port), cmd: cmd}
	if err := e.waitReady(ctx); err != nil {
		e.Stop()
		return nil, err
	}
	return e, nil
}

func (e *Emulator) waitReady(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	for {
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, e.URL+"/moto-api/", nil)
		if resp, err := http.DefaultClient.Do(req); err == nil {
			resp.Body.Close()
			return nil
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("localaws: moto_server at %s did not answer: %w", e.URL, ctx.Err())
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// Stop ends the emulator process.
func (e *Emulator) Stop() {
	if e == nil || e.cmd.Process == nil {
		return
	}
	_ = e.cmd.Process.Signal(os.Interrupt)
	done := make(chan struct{})
	go func() { _ = e.cmd.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(3 * time.Second):
		_ = e.cmd.Process.Kill()
		<-done
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
