package verify_test

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"testing"
	"time"

	"github.com/pair-cli/pair/app/verify"
	"github.com/pair-cli/pair/edit"
	"github.com/pair-cli/pair/internal/audit"
	"github.com/pair-cli/pair/repo"
	"github.com/pair-cli/pair/repo/repotest"
	"github.com/pair-cli/pair/review"
)

// benchModule is a Go module of 51 files: ten packages of four source
// files and a test each; the other nine import pkg00, whose one line
// (Version) each run changes.
func benchModule() map[string]string {
	files := map[string]string{"go.mod": "module example.com/bench\n\ngo 1.22\n"}
	for p := range 10 {
		pkg := fmt.Sprintf("pkg%02d", p)
		imp, use := "", "0"
		if p > 0 {
			imp, use = "import \"example.com/bench/pkg00\"\n\n", "len(pkg00.Version)"
		}
		for f := range 4 {
			body := fmt.Sprintf("package %s\n\n%s// F%d is one function of the file.\nfunc F%d(n int) int {\n\tfor i := range n {\n\t\tn += i %% 7\n\t}\n\treturn n + %s\n}\n", pkg, imp, f, f, use)
			if p == 0 && f == 0 {
				body += "\n// Version names the build.\nconst Version = \"v0\"\n"
			}
			files[fmt.Sprintf("%s/f%d.go", pkg, f)] = body
		}
		files[pkg+"/f_test.go"] = fmt.Sprintf("package %s\n\nimport \"testing\"\n\nfunc TestF(t *testing.T) {\n\tif F0(3) < 3 || F1(3) < 3 || F2(3) < 3 || F3(3) < 3 {\n\t\tt.Fatal(\"F\")\n\t}\n}\n", pkg)
	}
	return files
}

// BenchmarkSecondVerify compares the second verify of a one-line change
// in a Go module of about 50 files with running the same go test ./... in
// place, in a copy of the module: each iteration changes the line to a
// new value in both, so that neither finds its test results cached. It
// reports the time of each and their ratio (verify/in-place).
//
//	go test ./app/verify -run '^$' -bench SecondVerify -benchtime 5x
func BenchmarkSecondVerify(b *testing.B) {
	files := benchModule()
	vdir, pdir := repotest.Init(b, files), repotest.Init(b, files)
	tree, err := repo.Open(vdir)
	if err != nil {
		b.Fatal(err)
	}
	defer tree.Close()
	v := &verify.Verifier{Tree: tree, Command: "go test ./...", Timeout: 5 * time.Minute}
	change := func(i int) *review.Review {
		patch := fmt.Sprintf("--- a/pkg00/f0.go\n+++ b/pkg00/f0.go\n@@ -11,2 +11,2 @@\n // Version names the build.\n-const Version = \"v0\"\n+const Version = \"verify%d\"\n", i)
		p, err := edit.Parse(patch)
		if err != nil {
			b.Fatal(err)
		}
		plans, err := tree.PlaceWith(p, repo.Access{})
		if err != nil || len(plans[0].Errors) > 0 {
			b.Fatalf("place: %v %v", err, plans[0].Errors)
		}
		r := review.New(review.FromPlans(plans), nil)
		r.Items[0].Decision = audit.Approved
		return r
	}
	inPlace := func(i int) {
		repotest.WriteFile(b, pdir, "pkg00/f0.go", fmt.Sprintf("%sconst Version = \"place%d\"\n", files["pkg00/f0.go"][:len(files["pkg00/f0.go"])-len("const Version = \"v0\"\n")], i))
		cmd := exec.Command("go", "test", "./...")
		cmd.Dir = pdir
		cmd.Env = os.Environ()
		if out, err := cmd.CombinedOutput(); err != nil {
			b.Fatalf("go test in place: %v\n%s", err, out)
		}
	}
	// The first runs: the scratch tree is made, the caches are warm.
	if res, err := v.Verify(context.Background(), change(-1), nil); err != nil || !res.Pass {
		b.Fatalf("first verify: %v\n%s", err, res.Output)
	}
	inPlace(-1)
	var tv, tp time.Duration
	b.ResetTimer()
	for i := range b.N {
		b.StopTimer()
		r := change(i)
		b.StartTimer()
		start := time.Now()
		res, err := v.Verify(context.Background(), r, nil)
		tv += time.Since(start)
		if err != nil || !res.Pass {
			b.Fatalf("verify: %v\n%s", err, res.Output)
		}
		start = time.Now()
		inPlace(i)
		tp += time.Since(start)
	}
	b.ReportMetric(float64(tv.Milliseconds())/float64(b.N), "ms/verify")
	b.ReportMetric(float64(tp.Milliseconds())/float64(b.N), "ms/in-place")
	b.ReportMetric(float64(tv)/float64(tp), "ratio")
	if n := len(files); n < 45 || n > 55 {
		b.Fatalf("the module has %d files, want about 50", n)
	}
}
