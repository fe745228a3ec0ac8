// Package localproc runs the local stack's helper processes (the AWS emulator, the mailbox): a
// child that dies with its parent, whose last output is kept for the error that says why it
// stopped, waited for until it answers, and stopped with an interrupt then, after a grace, a kill.
package localproc

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Child is a started helper process.
type Child struct {
	name   string
	cmd    *exec.Cmd
	exited chan struct{}
	log    *tail
}

// Start starts cmd as a child named name (in errors). Its stderr, and its stdout unless cmd
// sends it elsewhere, are kept (the last 8 kB) besides going wherever cmd already sends them.
func Start(name string, cmd *exec.Cmd) (*Child, error) {
	c := &Child{name: name, cmd: cmd, exited: make(chan struct{}), log: &tail{}}
	if cmd.Stderr != nil {
		cmd.Stderr = io.MultiWriter(c.log, cmd.Stderr)
	} else {
		cmd.Stderr = c.log
	}
	if cmd.Stdout == nil {
		cmd.Stdout = c.log
	}
	configureChild(cmd)
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("%s: start: %w", name, err)
	}
	go func() { _ = cmd.Wait(); close(c.exited) }()
	return c, nil
}

// WaitReady asks ready every interval until it says yes, the child exits (an error with its last
// output) or timeout passes.
func (c *Child) WaitReady(ctx context.Context, timeout, interval time.Duration, ready func(context.Context) bool) error {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	for !ready(ctx) {
		select {
		case <-c.exited:
			return fmt.Errorf("%s exited: %s", c.name, strings.TrimSpace(c.log.String()))
		case <-ctx.Done():
			return fmt.Errorf("%s did not answer: %w", c.name, ctx.Err())
		case <-time.After(interval):
		}
	}
	return nil
}

// Stop interrupts the child and kills it if it has not ended within grace.
func (c *Child) Stop(grace time.Duration) {
	if c == nil {
		return
	}
	_ = c.cmd.Process.Signal(os.Interrupt)
	select {
	case <-c.exited:
	case <-time.After(grace):
		_ = c.cmd.Process.Kill()
		<-c.exited
	}
}

// Pid is the child's process id.
func (c *Child) Pid() int { return c.cmd.Process.Pid }

// Exited is closed when the child has ended.
func (c *Child) Exited() <-chan struct{} { return c.exited }

// Log is the last output the child wrote.
func (c *Child) Log() string { return c.log.String() }

// tail keeps the last 8 kB written to it.
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

// FreePort is a TCP port on 127.0.0.1 nothing listens on (at the moment of asking).
func FreePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, fmt.Errorf("free port: %w", err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

// InUse tells whether something accepts connections on 127.0.0.1:port.
func InUse(port int) bool {
	conn, err := net.DialTimeout("tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(port)), 200*time.Millisecond)
	if err != nil {
		return false
	}
	conn.Close()
	return true
}
