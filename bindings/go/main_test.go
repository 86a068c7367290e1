package hookline_test

import (
	"fmt"
	"os"
	"testing"
	"time"

	hookline "github.com/hookline/hookline/bindings/go"
)

// TestMain fails the run if any cgo.Handle outlives the tests: every test
// closes what it creates, so the count must return to zero.
func TestMain(m *testing.M) {
	code := m.Run()
	if code == 0 {
		deadline := time.Now().Add(5 * time.Second)
		for hookline.OutstandingHandles() != 0 && time.Now().Before(deadline) {
			time.Sleep(10 * time.Millisecond)
		}
		if n := hookline.OutstandingHandles(); n != 0 {
			fmt.Fprintf(os.Stderr, "leak: %d cgo handles still outstanding after all tests\n", n)
			code = 1
		}
	}
	os.Exit(code)
}

// waitHandles waits (generously) until the binding holds want handles.
func waitHandles(t *testing.T, want int64) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for hookline.OutstandingHandles() != want && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	if got := hookline.OutstandingHandles(); got != want {
		t.Fatalf("outstanding cgo handles = %d, want %d", got, want)
	}
}
