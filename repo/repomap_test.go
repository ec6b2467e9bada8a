package repo_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/pair-cli/pair/repo"
)

// mapFiles are one file per language RepoMap knows, and a few it does not.
var mapFiles = map[string]string{
	".gitignore": `ignored.py
`,
	"App.kt": `package app

data class P(val x: Int)

fun top(): Int = 1

class K {
    fun member() {}
    private suspend fun load(id: String) {}
}

object O
`,
	"Main.java": `package x;

public class Main {
    public static void main(String[] args) {
        if (args.length > 0) {
            System.out.println(args[0]);
        }
    }

    private Map<String, Integer> helper(int x) {
        return null;
    }

    public Main() {}
}

interface Shape {}
enum Color { RED }
`,
	"Prog.cs": `namespace N
{
    public class C
    {
        public async Task<int> RunAsync()
        {
            return 1;
        }
    }

    internal interface IThing {}
}
`,
	"README.md": `# Readme
`,
	"app.py": `import os

class Foo(Base):
    """Doc."""

    def method(self):
        def inner():
            pass
        return inner

    async def amethod(self):
        pass

def top():
    pass

async def atop():
    pass
`,
	"bin.go": "package bin\u0000\n",
	"broken.go": `package broken

func Good() {}

func bad( {
`,
	"id_rsa.py": `def leaked():
    pass
`,
	"ignored.py": `def ignored():
    pass
`,
	"lib.rb": `module M
  class C < Base
    def m
    end

    def self.s
    end
  end
end
`,
	"lib.rs": `use std::fmt;

pub fn a() {}
struct S;
pub(crate) enum E { A }
pub trait Tr {
    fn m(&self);
}
impl Tr for S {
    fn m(&self) {}
}
impl<T: Clone> fmt::Display for W<T> where T: Copy {
    pub async fn show(&self) {}
}
mod m;
macro_rules! mac { () => {} }
`,
	"main.go": `package main

import "fmt"

type T struct{ x int }

type (
	A int
	b string
)

const Exported = 1
const hidden = 2

var V, w int

func main() { fmt.Println() }

func (t *T) Method() {}

func (g G[K]) Gen() {}

func helper() {}
`,
	"run.sh": `#!/bin/sh
f() {
  echo f
}
function g {
  echo g
}
`,
	"script": `#!/bin/bash
h() { :; }
`,
	"util.c": `#include <stdio.h>

static int helper(int x)
{
	return x;
}

int main(int argc, char **argv) {
	return helper(argc);
}

struct point {
	int x;
};

int x = foo(1);
int proto(void);
`,
	"util.h": `#ifndef UTIL_H
#define UTIL_H(x) x
int api(int x);
const char *name(void);
typedef struct { int a; } T;
#endif
`,
	"web.ts": `import x from "y";
export function f(a: number): number { return a }
export default class C {}
export interface I { a: string }
type T = string | number;
export enum E { A }
const arrow = () => 1;
export const X = 5;
let notExported = 3;
const handler = async (req: Request): Promise<void> => {};
function* gen() {}
`,
}

// mapWant is RepoMap of mapFiles, unbounded, file by file: secrets and
// ignored files not read, binary and unknown files by name.
const mapWant = `.gitignore
App.kt
  class P
  fun top
  class K
    fun member
    fun load
  object O
Main.java
  class Main
    main()
    helper()
    Main()
  interface Shape
  enum Color
Prog.cs
  class C
    RunAsync()
  interface IThing
README.md
app.py
  class Foo(Base)
    def method(self)
    async def amethod(self)
  def top()
  async def atop()
bin.go
broken.go
  func Good()
  func bad()
id_rsa.py
lib.rb
  module M
    class C
    def m
    def self.s
lib.rs
  fn a
  struct S
  enum E
  trait Tr
    fn m
  impl Tr for S
    fn m
  impl fmt::Display for W<T>
    fn show
  mod m
  macro mac
main.go
  type T struct
    x int
    func (t *T) Method()
  type A int
  type b string
  const Exported
  const hidden
  var V
  var w
  func main()
  func helper()
  func (g G[K]) Gen()
run.sh
  f()
  g()
script
  h()
util.c
  helper()
  main()
  struct point
util.h
  api()
  name()
web.ts
  function f(a: number): number
  class C
  interface I
    a: string
  type T = string | number
  enum E
  const arrow = () =>
  const X = 5
  let notExported = 3
  const handler = async (req: Request): Promise<void> =>
  function* gen()
`

func mapTree(t *testing.T) *repo.Tree {
	t.Helper()
	dir := t.TempDir()
	gitInit(t, dir)
	writeFiles(t, dir, texts(mapFiles))
	return openTree(t, dir)
}

// mapBlocks splits a map into its files' blocks, by path, and the count
// of files its last line says were left out.
func mapBlocks(t *testing.T, m string) (blocks map[string]string, paths []string, more int) {
	t.Helper()
	blocks = map[string]string{}
	cur := ""
	for _, l := range strings.SplitAfter(m, "\n") {
		switch {
		case l == "":
		case strings.HasPrefix(l, "… "):
			fmt.Sscanf(l, "… %d more files", &more)
		case strings.HasPrefix(l, "  "):
			if cur == "" {
				t.Fatalf("map starts with a symbol:\n%s", m)
			}
			blocks[cur] += l
		default:
			cur = strings.TrimSuffix(l, "\n")
			if _, dup := blocks[cur]; dup {
				t.Errorf("map shows %s twice:\n%s", cur, m)
			}
			blocks[cur] = ""
			paths = append(paths, cur)
		}
	}
	return blocks, paths, more
}

func TestRepoMap(t *testing.T) {
	t.Parallel()
	tr := mapTree(t)
	got, truncated, err := tr.RepoMap(repo.Access{}, 0)
	if err != nil || truncated {
		t.Fatalf("RepoMap = truncated %v, %v", truncated, err)
	}
	gotBlocks, _, _ := mapBlocks(t, got)
	wantBlocks, _, _ := mapBlocks(t, mapWant)
	for p, want := range wantBlocks {
		if g, ok := gotBlocks[p]; !ok || g != want {
			t.Errorf("RepoMap: %s shows\n%s\nwant\n%s", p, g, want)
		}
	}
	if len(gotBlocks) != len(wantBlocks) {
		t.Errorf("RepoMap shows %d files, want %d:\n%s", len(gotBlocks), len(wantBlocks), got)
	}
	// Deterministic, and a budget it fits in changes nothing.
	again, truncated, err := tr.RepoMap(repo.Access{}, len(got)/4+8)
	if err != nil || truncated || again != got {
		t.Errorf("RepoMap with a budget it fits in = (truncated %v, %v)\n%s\nwant\n%s", truncated, err, again, got)
	}
}

func TestRepoMapAccess(t *testing.T) {
	t.Parallel()
	tr := mapTree(t)
	for _, tc := range []struct {
		access repo.Access
		has    []string
		hasNot []string
	}{
		{access: repo.Access{}, has: []string{"id_rsa.py\n"}, hasNot: []string{"leaked", "ignored.py"}},
		{access: repo.Access{Secrets: true}, has: []string{"id_rsa.py\n  def leaked()\n"}, hasNot: []string{"ignored.py"}},
		{access: repo.Access{Ignored: true}, has: []string{"ignored.py\n  def ignored()\n"}, hasNot: []string{"leaked"}},
	} {
		got, _, err := tr.RepoMap(tc.access, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, w := range tc.has {
			if !strings.Contains(got, w) {
				t.Errorf("RepoMap(%+v): no %q in\n%s", tc.access, w, got)
			}
		}
		for _, w := range tc.hasNot {
			if strings.Contains(got, w) {
				t.Errorf("RepoMap(%+v): %q in\n%s", tc.access, w, got)
			}
		}
	}
}

// TestRepoMapBudget: at every budget the map fits, shows only what the
// whole map shows, and counts every file it leaves out.
func TestRepoMapBudget(t *testing.T) {
	t.Parallel()
	tr := mapTree(t)
	whole, _, err := tr.RepoMap(repo.Access{}, 0)
	if err != nil {
		t.Fatal(err)
	}
	wholeBlocks, _, _ := mapBlocks(t, whole)
	for budget := 8; budget <= len(whole)/4+8; budget += 3 {
		got, truncated, err := tr.RepoMap(repo.Access{}, budget)
		if err != nil {
			t.Fatal(err)
		}
		if len(got) > budget*4 {
			t.Errorf("RepoMap(%d tokens): got %d characters, want at most %d", budget, len(got), budget*4)
		}
		if truncated != (got != whole) {
			t.Errorf("RepoMap(%d tokens): truncated %v, but the map is whole: %v", budget, truncated, got == whole)
		}
		blocks, paths, more := mapBlocks(t, got)
		if len(paths)+more != len(wholeBlocks) {
			t.Errorf("RepoMap(%d tokens): %d paths and %d left out, want %d in all\n%s", budget, len(paths), more, len(wholeBlocks), got)
		}
		for p, b := range blocks {
			for _, l := range strings.SplitAfter(b, "\n") {
				if !strings.Contains(wholeBlocks[p], l) {
					t.Errorf("RepoMap(%d tokens): %s shows %q, which the whole map does not", budget, p, l)
				}
			}
		}
	}
}

func TestRepoMapNotGit(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	writeFiles(t, dir, texts(map[string]string{"a.py": "def a():\n    pass\n", ".pair/x.go": "package x\n"}))
	tr := openTree(t, dir)
	got, truncated, err := tr.RepoMap(repo.Access{}, 1000)
	if want := "a.py\n  def a()\n"; err != nil || truncated || got != want {
		t.Errorf("RepoMap outside git = %q, %v, %v, want %q, false, nil", got, truncated, err, want)
	}
}
