// Package pgtest starts a throwaway PostgreSQL server for tests: Debian's
// postgresql (make test installs it with apt-get when it is missing),
// initdb in a temporary directory, listening on a Unix socket in it only,
// stopped and removed when the test ends. Where no server is installed the
// test skips, loudly, unless $ACPGEN_REQUIRE_POSTGRES is set (make test
// sets it where it could install one): then it fails.
package pgtest

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strconv"
	"syscall"
	"testing"
	"time"

	_ "github.com/jackc/pgx/v5/stdlib" // the database/sql driver "pgx"
)

// Server is a running throwaway server.
type Server struct {
	// DSN connects to its database "postgres" as user "postgres".
	DSN string
	// Dir is the directory of its data and socket.
	Dir  string
	cmd  *exec.Cmd
	done chan error
}

// bin finds program name of the server's installation.
func bin(name string) (string, error) {
	if p, err := exec.LookPath(name); err == nil {
		return p, nil
	}
	matches, _ := filepath.Glob("/usr/lib/postgresql/*/bin/" + name)
	if len(matches) == 0 {
		return "", fmt.Errorf("%s not found (Debian's postgresql is not installed)", name)
	}
	return matches[len(matches)-1], nil
}

// Start starts a server for t and stops it when t ends.
func Start(t testing.TB) *Server {
	t.Helper()
	initdb, err := bin("initdb")
	var postgres string
	if err == nil {
		postgres, err = bin("postgres")
	}
	if err != nil {
		if os.Getenv("ACPGEN_REQUIRE_POSTGRES") != "" {
			t.Fatalf("PostgreSQL is required ($ACPGEN_REQUIRE_POSTGRES) but: %v", err)
		}
		t.Skipf("SKIPPED: no PostgreSQL server: %v (make test installs Debian's postgresql as root)", err)
	}
	dir, err := os.MkdirTemp("", "acpgen-pg-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	cred := credential(t, dir)
	data := filepath.Join(dir, "data")
	cmd := exec.Command(initdb, "-D", data, "-U", "postgres", "--auth=trust", "-E", "UTF8", "--no-sync", "--no-instructions")
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: cred}
	cmd.Env = []string{"LANG=C", "PATH=/usr/bin:/bin"}
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("initdb: %v\n%s", err, out)
	}
	s := &Server{Dir: dir, done: make(chan error, 1)}
	s.cmd = exec.Command(postgres, "-D", data, "-k", dir, "-c", "listen_addresses=", "-c", "fsync=off",
		"-c", "max_connections=60", "-c", "shared_buffers=16MB")
	s.cmd.SysProcAttr = &syscall.SysProcAttr{Credential: cred}
	s.cmd.Env = []string{"LANG=C"}
	log, err := os.Create(filepath.Join(dir, "postgres.log"))
	if err != nil {
		t.Fatal(err)
	}
	s.cmd.Stdout, s.cmd.Stderr = log, log
	if err := s.cmd.Start(); err != nil {
		log.Close()
		t.Fatalf("start postgres: %v", err)
	}
	go func() { s.done <- s.cmd.Wait(); log.Close() }()
	t.Cleanup(s.stop)
	s.DSN = "host=" + dir + " port=5432 user=postgres dbname=postgres sslmode=disable"
	if err := s.ready(); err != nil {
		out, _ := os.ReadFile(filepath.Join(dir, "postgres.log"))
		t.Fatalf("postgres did not start: %v\n%s", err, out)
	}
	return s
}

// credential returns the credential the server runs with: a root test
// runs it as user postgres (postgres refuses to run as root), which then
// owns dir.
func credential(t testing.TB, dir string) *syscall.Credential {
	if os.Geteuid() != 0 {
		return nil
	}
	u, err := user.Lookup("postgres")
	if err != nil {
		t.Skipf("SKIPPED: running as root and there is no user postgres to run the server as: %v", err)
	}
	uid, _ := strconv.Atoi(u.Uid)
	gid, _ := strconv.Atoi(u.Gid)
	if err := os.Chown(dir, uid, gid); err != nil {
		t.Fatal(err)
	}
	return &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid)}
}

// ready waits until the server answers.
func (s *Server) ready() error {
	db, err := sql.Open("pgx", s.DSN)
	if err != nil {
		return err
	}
	defer db.Close()
	deadline := time.Now().Add(30 * time.Second)
	for {
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		err = db.PingContext(ctx)
		cancel()
		if err == nil {
			return nil
		}
		select {
		case werr := <-s.done:
			s.done <- werr
			return fmt.Errorf("the server exited: %v", werr)
		case <-time.After(50 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			return err
		}
	}
}

// Stop stops the server (fast shutdown) and waits for it to exit.
func (s *Server) Stop() { s.stop() }

func (s *Server) stop() {
	select {
	case err := <-s.done:
		s.done <- err
		return
	default:
	}
	s.cmd.Process.Signal(syscall.SIGINT)
	select {
	case err := <-s.done:
		s.done <- err
	case <-time.After(20 * time.Second):
		s.cmd.Process.Kill()
		s.done <- <-s.done
	}
}

// Restart starts the stopped server again on the same data and socket.
func (s *Server) Restart(t testing.TB) {
	t.Helper()
	s.stop()
	<-s.done
	cmd := exec.Command(s.cmd.Path, s.cmd.Args[1:]...)
	cmd.SysProcAttr, cmd.Env = s.cmd.SysProcAttr, s.cmd.Env
	log, err := os.OpenFile(filepath.Join(s.Dir, "postgres.log"), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stdout, cmd.Stderr = log, log
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	s.cmd = cmd
	go func() { s.done <- cmd.Wait(); log.Close() }()
	if err := s.ready(); err != nil {
		t.Fatal(err)
	}
}
