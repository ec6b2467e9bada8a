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
	// A name qualified by a standard library package is that package's.
	std := map[string]bool{}
	for _, im := range f.Imports {
		p := strings.Trim(im.Path.Value, "`\"")
		if strings.Contains(strings.Split(p, "/")[0], ".") {
			continue
		}
		name := path.Base(p)
		if im.Name != nil {
			name = im.Name.Name
		}
		std[name] = true
	}
	fs.refs = map[string]int{}
	ast.Inspect(f, func(n ast.Node) bool {
		if sel, ok := n.(*ast.SelectorExpr); ok {
			if x, ok := sel.X.(*ast.Ident); ok && std[x.Name] {
				return false
			}
		}
		if id, ok := n.(*ast.Ident); ok && !declared[id] && id.Name != "_" {
			fs.refs[id.Name]++
		}
		return true
	})
	delete(fs.refs, f.Name.Name)
	return fs
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
