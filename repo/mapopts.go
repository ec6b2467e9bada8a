// mapopts.go: MapOptions and DefaultMapBudget, what a caller asks of the repository map.

package repo

// DefaultMapBudget is the budget of a map, in tokens, when MapOptions
// gives none: about what the first request carries.
const DefaultMapBudget = 1024

// MapOptions say what a repository map is for.
type MapOptions struct {
	// Focus, a path or a glob as ListFiles takes it, keeps the map to the
	// files it matches ("" is the whole tree).
	Focus string
	// Budget is the map's size in tokens, counted as 4 characters each:
	// DefaultMapBudget when 0, no bound when negative.
	Budget int
	// Mentioned are texts (the request itself will do) whose words name
	// identifiers or paths: their definitions and files rank first.
	Mentioned []string
	// InContext are the paths of the files whose content the model
	// already has: the files they reference rank higher, and they are
	// left out of the map.
	InContext []string
}
