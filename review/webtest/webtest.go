// Package webtest starts a headless Chromium for the tests of pair's web
// page, with one rule for every package: without a browser the test is
// skipped, unless PAIR_REQUIRE_CHROMIUM is set (as CI does), which makes
// it a failure.
package webtest

import (
	"context"
	"os"
	"os/exec"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// RequireChromium names the environment variable that makes a missing
// browser a failure instead of a skip.
const RequireChromium = "PAIR_REQUIRE_CHROMIUM"

// Chromium finds a Chromium or Chrome to drive, or skips or fails t.
func Chromium(t testing.TB) string {
	t.Helper()
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	msg := "no chromium, chromium-browser or google-chrome on PATH (apt-get install chromium)"
	if os.Getenv(RequireChromium) != "" {
		t.Fatalf("%s, and %s is set", msg, RequireChromium)
	}
	t.Skipf("%s; set %s=1 to make this a failure", msg, RequireChromium)
	return ""
}

// Browser starts a headless Chromium for t, stopped when t ends, and
// returns its context. Browser actions wait for what they wait for as long
// as the test may run: the context ends a little before the test's
// deadline (go test -timeout), so that a hang fails the test at the step
// it was at, and a loaded machine is only slow.
func Browser(t *testing.T) context.Context {
	t.Helper()
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(Chromium(t)),
		chromedp.NoSandbox, // CI runs as root
		chromedp.Flag("disable-dev-shm-usage", true),
		chromedp.WindowSize(1280, 1600),
	)
	ctx, cancel := context.WithCancel(context.Background())
	if end, ok := t.Deadline(); ok {
		ctx, cancel = context.WithDeadline(context.Background(), end.Add(-min(30*time.Second, time.Until(end)/4)))
	}
	t.Cleanup(cancel)
	actx, acancel := chromedp.NewExecAllocator(ctx, opts...)
	t.Cleanup(acancel)
	bctx, bcancel := chromedp.NewContext(actx)
	t.Cleanup(bcancel)
	if err := chromedp.Do(bctx); err != nil {
		t.Fatalf("starting Chromium: %v", err)
	}
	return bctx
}

// Until is a browser wait for a JavaScript expression to be true in the
// page, bounded by the browser's context alone (see Browser).
func Until(expr string) chromedp.Action[chromedp.Void] {
	return chromedp.Poll[chromedp.Void](expr, chromedp.WithPollingTimeout(0))
}
