// symbols_go.go: Go declarations and references, read with go/parser.

package repo

import (
	"bytes"
	"go/ast"
	"go/parser"
	"go/printer"
	"go/token"
	"path"
	"strings"
)

// goSymbols reads a Go file with go/parser: its funcs with their
// signatures, its types with their fields (or interface methods) and the
// methods declared beside them, and its consts and vars; and every
// identifier it uses. A file that does not parse gives what was read
// before the error.
func goSymbols(name string, src []byte) fileSymbols {
	fset := token.NewFileSet()
	f, _ := parser.ParseFile(fset, name, src, parser.SkipObjectResolution)
	if f == nil || f.Name == nil {
		return fileSymbols{}
	}
	var fs fileSymbols
	declared := map[*ast.Ident]bool{}
	types := map[string]int{} // type name to its index in defs
	add := func(id *ast.Ident, text string, parent int) int {
		declared[id] = true
		fs.defs = append(fs.defs, symbol{name: id.Name, text: clipSig(text), parent: parent})
		return len(fs.defs) - 1
	}
	var methods []*ast.FuncDecl
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			if d.Recv != nil && len(d.Recv.List) > 0 {
				methods = append(methods, d)
				continue
			}
			add(d.Name, goNode(fset, &ast.FuncDecl{Name: d.Name, Type: d.Type}), -1)
		case *ast.GenDecl:
			for _, s := range d.Specs {
				switch s := s.(type) {
				case *ast.TypeSpec:
					i := add(s.Name, "type "+s.Name.Name+goTypeParams(fset, s)+" "+goTypeKind(fset, s.Type), -1)
					types[s.Name.Name] = i
					goMembers(fset, s, i, add)
				case *ast.ValueSpec:
					for _, n := range s.Names {
						if n.Name != "_" {
							add(n, d.Tok.String()+" "+n.Name, -1)
						}
					}
				}
			}
		}
	}
	for _, d := range methods {
		text := goNode(fset, &ast.FuncDecl{Recv: d.Recv, Name: d.Name, Type: d.Type})
		parent, ok := types[recvType(d.Recv.List[0].Type)]
		if !ok {
			parent = -1
		}
		add(d.Name, text, parent)
	}
	// Imports by the name the file uses: a name qualified by one is that
	// package's; a standard library package's names are none of the
	// tree's.
	imports := map[string]string{}
	for _, im := range f.Imports {
		p := strings.Trim(im.Path.Value, "`\"")
		name := path.Base(p)
		if len(name) > 1 && name[0] == 'v' && strings.Trim(name[1:], "0123456789") == "" && path.Dir(p) != "." {
			name = path.Base(path.Dir(p)) // example.com/mod/v2
		}
		if im.Name != nil {
			name = im.Name.Name
		}
		if !strings.Contains(strings.Split(p, "/")[0], ".") {
			p = "" // the standard library
		}
		imports[name] = p
	}
	fs.refs = map[string]int{}
	plain := map[*ast.Ident]bool{} // a field or method: of any type
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.SelectorExpr:
			if x, ok := n.X.(*ast.Ident); ok {
				if p, ok := imports[x.Name]; ok {
					if p != "" {
						fs.refs[goScoped(p, n.Sel.Name)]++
					}
					return false
				}
			}
			plain[n.Sel] = true
		case *ast.KeyValueExpr:
			if k, ok := n.Key.(*ast.Ident); ok {
				plain[k] = true
			}
		case *ast.Ident:
			switch {
			case declared[n] || n.Name == "_" || n.Name == f.Name.Name:
			case plain[n]:
				fs.refs[n.Name]++
			default:
				fs.refs[goScoped(".", n.Name)]++
			}
		}
		return true
	})
	return fs
}

// goScoped is the key of a Go reference to name in the package imported
// as importPath ("." for the file's own package): a reference that only
// the files of that package's folder can answer.
func goScoped(importPath, name string) string {
	return importPath + "\x00" + name
}

// splitScoped splits a reference key into the package it is scoped to
// ("" for none, "." for the referring file's own) and the name.
func splitScoped(key string) (scope, name string) {
	if s, n, ok := strings.Cut(key, "\x00"); ok {
		return s, n
	}
	return "", key
}

// inScope reports whether the file at p can answer a reference scoped to
// scope from the file at from: any file for no scope, the same folder for
// ".", and a folder the import path ends with otherwise.
func inScope(scope, from, p string) bool {
	dir := path.Dir(p)
	switch scope {
	case "":
		return true
	case ".":
		return dir == path.Dir(from)
	}
	return scope == dir || strings.HasSuffix(scope, "/"+dir)
}

// goMembers adds the fields of a struct type, or the methods of an
// interface type, as members of the type at index parent.
func goMembers(fset *token.FileSet, s *ast.TypeSpec, parent int, add func(*ast.Ident, string, int) int) {
	var fields *ast.FieldList
	switch t := s.Type.(type) {
	case *ast.StructType:
		fields = t.Fields
	case *ast.InterfaceType:
		fields = t.Methods
	}
	if fields == nil {
		return
	}
	for _, fld := range fields.List {
		if len(fld.Names) == 0 {
			// An embedded type: its name is the member.
			if id := baseIdent(fld.Type); id != nil {
				add(id, goNode(fset, fld.Type), parent)
			}
			continue
		}
		for _, n := range fld.Names {
			if ft, ok := fld.Type.(*ast.FuncType); ok {
				add(n, n.Name+goNode(fset, ft)[len("func"):], parent)
				continue
			}
			add(n, n.Name+" "+goNode(fset, fld.Type), parent)
		}
	}
}

// baseIdent is the name of an embedded type: T for *T, pkg.T, T[K].
func baseIdent(e ast.Expr) *ast.Ident {
	for {
		switch x := e.(type) {
		case *ast.StarExpr:
			e = x.X
		case *ast.SelectorExpr:
			return x.Sel
		case *ast.IndexExpr:
			e = x.X
		case *ast.IndexListExpr:
			e = x.X
		case *ast.Ident:
			return x
		default:
			return nil
		}
	}
}

// goTypeKind is what a type declaration shows after its name: "struct" or
// "interface" for those, the type itself for others.
func goTypeKind(fset *token.FileSet, e ast.Expr) string {
	switch e.(type) {
	case *ast.StructType:
		return "struct"
	case *ast.InterfaceType:
		return "interface"
	}
	return goNode(fset, e)
}

// goTypeParams prints a generic type's parameters, "" for others.
func goTypeParams(fset *token.FileSet, s *ast.TypeSpec) string {
	if s.TypeParams == nil {
		return ""
	}
	return "[" + goNode(fset, s.TypeParams)[1:len(goNode(fset, s.TypeParams))-1] + "]"
}

// goNode prints a node on one line.
func goNode(fset *token.FileSet, n any) string {
	var b bytes.Buffer
	if err := (&printer.Config{Mode: printer.RawFormat}).Fprint(&b, fset, n); err != nil {
		return ""
	}
	return oneLine(b.String())
}

// recvType is the base type name of a method's receiver: T for *T, T[K].
func recvType(e ast.Expr) string {
	if id := baseIdent(e); id != nil {
		return id.Name
	}
	return "?"
}
